#include "harness/runner/gate.h"

#include "harness/protocol/protocol.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace cugrade::runner {

bool wait_at_gate(int fd) {
  ssize_t done = 0;
  do {
    done = ::send(fd, &protocol::gate_ready, 1, MSG_NOSIGNAL);
  } while (done < 0 && errno == EINTR);
  char answer = 0;
  ssize_t got = 0;
  if (done == 1) {
    do {
      got = ::read(fd, &answer, 1);
    } while (got < 0 && errno == EINTR);
  }
  ::close(fd);
  return got == 1 && answer == protocol::gate_go;
}

} // namespace cugrade::runner
