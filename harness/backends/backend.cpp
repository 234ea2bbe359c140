#include "harness/backends/backend.h"

#include "harness/core/error.h"

namespace cugrade::backends {

void* backend::allocate(std::size_t bytes) {
  void* p = do_allocate(bytes == 0 ? 1 : bytes);
  if (p == nullptr) {
    CUGRADE_THROW("the device could not allocate " + std::to_string(bytes) + " bytes");
  }
  return p;
}

bool backend::upload(void* device_dst, const void* host_src, std::size_t bytes) {
  return bytes == 0 || do_upload(device_dst, host_src, bytes);
}

bool backend::download(void* host_dst, const void* device_src, std::size_t bytes) {
  return bytes == 0 || do_download(host_dst, device_src, bytes);
}

} // namespace cugrade::backends
