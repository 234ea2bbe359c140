#pragma once
/// \file
/// One device allocation with room for a guard region after the payload, released on scope exit.

#include "harness/backends/backend.h"

#include <cstddef>

namespace cugrade::runner {

/// When set, buffers get no guard region (a plan's exact_buffers: runs under compute-sanitizer).
inline bool& exact_buffers() {
  static bool exact = false;
  return exact;
}

class device_buffer {
public:
  device_buffer(backends::backend& b, std::size_t payload_bytes)
      : m_backend(&b), m_payload(payload_bytes),
        m_guard(exact_buffers() ? 0 : b.guard_bytes(payload_bytes)),
        m_ptr(b.allocate(payload_bytes + m_guard)) {}
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { m_backend->release(m_ptr); }

  [[nodiscard]] void* get() const noexcept { return m_ptr; }
  [[nodiscard]] std::size_t payload_bytes() const noexcept { return m_payload; }
  [[nodiscard]] std::size_t guard_bytes() const noexcept { return m_guard; }
  [[nodiscard]] std::size_t total_bytes() const noexcept { return m_payload + m_guard; }

private:
  backends::backend* m_backend;
  std::size_t m_payload;
  std::size_t m_guard;
  void* m_ptr;
};

} // namespace cugrade::runner
