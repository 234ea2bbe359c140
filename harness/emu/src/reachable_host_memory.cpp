#include "harness/emu/src/reachable_host_memory.h"

#include <cstdlib>

namespace cugrade::emu::detail {

reachable_host_memory& reachable_host_memory::instance() {
  static auto* memory = new reachable_host_memory();
  return *memory;
}

void reachable_host_memory::add(const void* p, std::size_t bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::lock_guard lock(m_mutex);
  m_ranges[begin] = begin + (bytes == 0 ? 1 : bytes);
}

void reachable_host_memory::remove(const void* p) {
  const std::lock_guard lock(m_mutex);
  m_ranges.erase(reinterpret_cast<std::uintptr_t>(p));
}

bool reachable_host_memory::find(std::uintptr_t at, std::uintptr_t& begin,
                                 std::uintptr_t& end) const {
  const std::lock_guard lock(m_mutex);
  auto it = m_ranges.upper_bound(at);
  if (it == m_ranges.begin()) {
    return false;
  }
  --it;
  if (at >= it->second) {
    return false;
  }
  begin = it->first;
  end = it->second;
  return true;
}

__attribute__((visibility("default"))) void* device_malloc(unsigned long bytes) {
  void* p = std::malloc(bytes);
  if (p != nullptr) {
    reachable_host_memory::instance().add(p, bytes);
  }
  return p;
}

__attribute__((visibility("default"))) void device_free(void* p) {
  if (p != nullptr) {
    reachable_host_memory::instance().remove(p);
    std::free(p);
  }
}

} // namespace cugrade::emu::detail
