#include "grader/fetch/detail/file_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace cugrade::fetch::detail {

result<file_lock> file_lock::acquire(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return fail(path.string() + ": cannot create the cache lock (" + std::strerror(errno) +
                "); give a writable cache directory");
  int rc = 0;
  do {
    rc = ::flock(fd, LOCK_EX);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    return fail(path.string() + ": cannot lock the cache entry (" + reason +
                "); put the cache on a local file system");
  }
  return file_lock(fd);
}

file_lock::~file_lock() {
  if (m_fd >= 0)
    ::close(m_fd); // closing releases the flock
}

} // namespace cugrade::fetch::detail
