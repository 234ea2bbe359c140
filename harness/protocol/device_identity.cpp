#include "harness/protocol/protocol.h"

namespace cugrade::protocol {

bool same_model(const device_identity& a, const device_identity& b) {
  return a.backend == b.backend && a.device == b.device && a.arch == b.arch &&
         a.driver == b.driver && a.runtime == b.runtime;
}

} // namespace cugrade::protocol
