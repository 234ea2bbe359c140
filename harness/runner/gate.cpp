#include "harness/runner/gate.h"

#include "harness/protocol/protocol.h"

#include <unistd.h>

#include <cerrno>

namespace cugrade::runner {

bool wait_at_gate(int fd) {
  char answer = 0;
  ssize_t got = 0;
  if (protocol::send_gate_byte(fd, protocol::gate_ready)) {
    do {
      got = ::read(fd, &answer, 1);
    } while (got < 0 && errno == EINTR);
  }
  ::close(fd);
  return got == 1 && answer == protocol::gate_go;
}

} // namespace cugrade::runner
