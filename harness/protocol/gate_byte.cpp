#include "harness/protocol/protocol.h"

#include <sys/socket.h>

#include <cerrno>

namespace cugrade::protocol {

bool send_gate_byte(int fd, char byte) {
  ssize_t done = 0;
  do {
    done = ::send(fd, &byte, 1, MSG_NOSIGNAL);
  } while (done < 0 && errno == EINTR);
  return done == 1;
}

} // namespace cugrade::protocol
