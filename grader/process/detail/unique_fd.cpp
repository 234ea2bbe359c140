#include "grader/process/detail/unique_fd.h"

#include "harness/core/error.h"

#include <fcntl.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>

namespace cugrade::process::detail {

pipe_pair make_pipe() {
  std::array<int, 2> fds{};
  if (pipe2(fds.data(), O_CLOEXEC) != 0) {
    CUGRADE_THROW(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  return pipe_pair{unique_fd(fds[0]), unique_fd(fds[1])};
}

} // namespace cugrade::process::detail
