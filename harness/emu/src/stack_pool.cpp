#include "harness/emu/src/stack_pool.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>

#include "harness/core/error.h"

namespace cugrade::emu::detail {
namespace {

// Chunks of every pool, for the fault handler (lock-free reads).
constexpr int k_regions = 4096;
std::atomic<std::uintptr_t> g_regions[k_regions];
std::atomic<int> g_region_high{0}; ///< no region at this index or above

int register_region(char* base) {
  for (int i = 0; i < k_regions; ++i) {
    std::uintptr_t expected = 0;
    if (g_regions[i].compare_exchange_strong(expected, reinterpret_cast<std::uintptr_t>(base))) {
      int high = g_region_high.load();
      while (high < i + 1 && !g_region_high.compare_exchange_weak(high, i + 1)) {
      }
      return i;
    }
  }
  return -1; // not registered: an overflow there is reported as an illegal address
}

} // namespace

stack_pool::~stack_pool() {
  for (const int index : m_registry) {
    if (index >= 0) {
      g_regions[index].store(0);
    }
  }
  for (char* chunk : m_chunks) {
    munmap(chunk, chunk_slots * stride);
  }
}

void stack_pool::add_chunk() {
  void* map = mmap(nullptr, chunk_slots * stride, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) {
    CUGRADE_THROW("cugrade emulator: cannot reserve fiber stacks (mmap failed; is the "
                  "address-space limit too low?)");
  }
  m_chunks.push_back(static_cast<char*>(map));
  m_registry.push_back(register_region(m_chunks.back()));
}

int stack_pool::acquire() {
  if (!m_free.empty()) {
    const int slot = m_free.back();
    m_free.pop_back();
    return slot;
  }
  if (m_prepared == static_cast<int>(m_chunks.size()) * chunk_slots) {
    add_chunk();
  }
  const int slot = m_prepared++;
  if (mprotect(slot_base(slot) + guard_bytes, stack_bytes, PROT_READ | PROT_WRITE) != 0) {
    CUGRADE_THROW("cugrade emulator: cannot commit a fiber stack (mprotect failed)");
  }
  return slot;
}

void stack_pool::release(int slot) {
  m_free.push_back(slot);
}

bool stack_pool::chunk_around(const void* addr, std::uintptr_t& begin, std::uintptr_t& end) {
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  const int high = g_region_high.load(std::memory_order_acquire);
  for (int i = 0; i < high; ++i) {
    const std::uintptr_t base = g_regions[i].load(std::memory_order_acquire);
    if (base != 0 && a >= base && a < base + chunk_slots * stride) {
      begin = base;
      end = base + chunk_slots * stride;
      return true;
    }
  }
  return false;
}

bool stack_pool::is_guard(const void* addr) {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  return chunk_around(addr, begin, end) &&
         (reinterpret_cast<std::uintptr_t>(addr) - begin) % stride < guard_bytes;
}

} // namespace cugrade::emu::detail
