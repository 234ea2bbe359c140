#include "harness/emu/src/stack_pool.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>

#include "harness/core/error.h"

namespace cugrade::emu::detail {
namespace {

// Regions of every pool, for the fault handler (lock-free reads).
struct region {
  std::atomic<std::uintptr_t> base{0};
};
constexpr int k_regions = 1024;
region g_regions[k_regions];
constexpr std::size_t k_region_bytes =
    std::size_t{stack_pool::capacity} * (4096 + stack_pool::stack_bytes);

int register_region(char* base) {
  for (int i = 0; i < k_regions; ++i) {
    std::uintptr_t expected = 0;
    if (g_regions[i].base.compare_exchange_strong(expected,
                                                  reinterpret_cast<std::uintptr_t>(base))) {
      return i;
    }
  }
  return -1;
}

} // namespace

stack_pool::stack_pool() {
  void* map =
      mmap(nullptr, k_region_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) {
    CUGRADE_THROW("cugrade emulator: cannot reserve fiber stacks (mmap failed)");
  }
  m_base = static_cast<char*>(map);
  m_registry_index = register_region(m_base);
  m_free.reserve(capacity);
}

stack_pool::~stack_pool() {
  if (m_registry_index >= 0) {
    g_regions[m_registry_index].base.store(0);
  }
  munmap(m_base, k_region_bytes);
}

int stack_pool::acquire() {
  if (!m_free.empty()) {
    const int slot = m_free.back();
    m_free.pop_back();
    return slot;
  }
  if (m_prepared == capacity) {
    CUGRADE_THROW("cugrade emulator: out of fiber stacks");
  }
  const int slot = static_cast<int>(m_prepared++);
  if (mprotect(m_base + slot * stride + guard_bytes, stack_bytes, PROT_READ | PROT_WRITE) != 0) {
    CUGRADE_THROW("cugrade emulator: cannot commit a fiber stack (mprotect failed)");
  }
  return slot;
}

void stack_pool::release(int slot) {
  m_free.push_back(slot);
}

std::size_t stack_pool::colour(int slot) const {
  return static_cast<std::size_t>((slot * 7) % 32) * 128;
}

void* stack_pool::top(int slot) const {
  return m_base + (static_cast<std::size_t>(slot) + 1) * stride - colour(slot);
}

std::size_t stack_pool::usable(int slot) const {
  return stack_bytes - colour(slot);
}

bool stack_pool::is_guard(const void* addr) {
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  for (const auto& r : g_regions) {
    const std::uintptr_t base = r.base.load(std::memory_order_acquire);
    if (base != 0 && a >= base && a < base + k_region_bytes) {
      return (a - base) % stride < guard_bytes;
    }
  }
  return false;
}

} // namespace cugrade::emu::detail
