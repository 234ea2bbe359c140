#include "harness/emu/src/memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>

namespace cugrade::emu::detail {
namespace {

constexpr std::size_t k_page = 4096;
constexpr std::size_t k_front_guard = 64 * 1024;
constexpr std::size_t k_min_rear_guard = 64 * 1024;
constexpr std::size_t k_max_rear_guard = 64 * 1024 * 1024;
constexpr std::size_t k_quarantine = 256;
constexpr unsigned char k_canary = 0xA5;
/// Fresh device memory holds garbage, as on a GPU that reuses memory: 0xCDCDCDCD reads as
/// -4.3e8f or -842150451, never as a plausible zero.
constexpr unsigned char k_garbage = 0xCD;

// The fault handler reads this table without locks: a slot is published by storing map_base
// last (release) and retired by clearing it first.
struct fault_slot {
  std::atomic<std::uintptr_t> map_base{0};
  std::uintptr_t map_len = 0;
  std::uintptr_t user = 0;
  std::size_t size = 0;
  std::size_t front = 0;
  std::atomic<bool> freed{false};
};
constexpr int k_slots = 8192;
fault_slot g_slots[k_slots];
std::atomic<int> g_slot_high{0};

int claim_slot(const std::byte* base, std::size_t len, std::size_t front, const std::byte* user,
               std::size_t size) {
  for (int i = 0; i < k_slots; ++i) {
    if (g_slots[i].map_base.load(std::memory_order_acquire) != 0) {
      continue;
    }
    auto& s = g_slots[i];
    s.map_len = len;
    s.user = reinterpret_cast<std::uintptr_t>(user);
    s.size = size;
    s.front = front;
    s.freed.store(false);
    s.map_base.store(reinterpret_cast<std::uintptr_t>(base), std::memory_order_release);
    int high = g_slot_high.load();
    while (high < i + 1 && !g_slot_high.compare_exchange_weak(high, i + 1)) {
    }
    return i;
  }
  return -1;
}

std::size_t round_up(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

} // namespace

device_memory& device_memory::instance() {
  static auto* memory = new device_memory();
  return *memory;
}

cudaError_t device_memory::allocate(void** out, std::size_t size, bool host_visible) {
  const std::size_t data = round_up(size, k_page);
  const std::size_t rear = std::clamp(data, k_min_rear_guard, k_max_rear_guard);
  const std::size_t len = k_front_guard + data + rear;
  void* map = mmap(nullptr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) {
    return cudaErrorMemoryAllocation;
  }
  auto* base = static_cast<std::byte*>(map);
  if (mprotect(base + k_front_guard, data, PROT_READ | PROT_WRITE) != 0) {
    munmap(map, len);
    return cudaErrorMemoryAllocation;
  }
  std::byte* user = base + k_front_guard + data - size;
  std::memset(base + k_front_guard, k_canary, data - size);
  std::memset(user, k_garbage, size);
  const std::lock_guard lock(m_mutex);
  const int slot = claim_slot(base, len, k_front_guard, user, size);
  if (slot < 0) {
    munmap(map, len);
    return cudaErrorMemoryAllocation;
  }
  const auto key = reinterpret_cast<std::uintptr_t>(user);
  const record& r = m_live[key] = record{base, len, k_front_guard, key, size, slot, host_visible};
  m_bytes += size;
  if (m_host_guard && m_open_scopes == 0 && !host_visible) { // made by the launcher's host code
    set_access(r, false);
  }
  *out = user;
  return cudaSuccess;
}

cudaError_t device_memory::release(void* p) {
  const std::lock_guard lock(m_mutex);
  const auto it = m_live.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == m_live.end()) {
    return cudaErrorInvalidValue;
  }
  quarantine(it->second);
  m_bytes -= it->second.size;
  m_live.erase(it);
  return cudaSuccess;
}

void device_memory::quarantine(const record& r) {
  // Keep the addresses reserved (PROT_NONE, pages returned) so a later access faults as
  // use-after-free instead of landing in some new allocation.
  mprotect(r.map_base, r.map_len, PROT_NONE);
  madvise(r.map_base, r.map_len, MADV_DONTNEED);
  g_slots[r.slot].freed.store(true, std::memory_order_release);
  m_freed.push_back(r);
  if (m_freed.size() > k_quarantine) {
    unmap(m_freed.front());
    m_freed.erase(m_freed.begin());
  }
}

void device_memory::unmap(const record& r) {
  g_slots[r.slot].map_base.store(0, std::memory_order_release);
  munmap(r.map_base, r.map_len);
}

const device_memory::record* device_memory::find(const void* p) const {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto it = m_live.upper_bound(addr);
  if (it == m_live.begin()) {
    return nullptr;
  }
  --it;
  return addr <= it->first + it->second.size ? &it->second : nullptr;
}

device_memory::record* device_memory::find(const void* p) {
  // The record the const lookup finds is one of this object's own (m_live).
  return const_cast<record*>(std::as_const(*this).find(p));
}

bool device_memory::buffer_around(const void* p, std::size_t n, std::uintptr_t& begin,
                                  std::uintptr_t& end) const {
  const std::lock_guard lock(m_mutex);
  const record* r = find(p);
  if (r == nullptr || reinterpret_cast<std::uintptr_t>(p) + n > r->user + r->size) {
    return false;
  }
  begin = r->user;
  end = r->user + r->size;
  return true;
}

bool device_memory::contains(const void* p, std::size_t n) const {
  const std::lock_guard lock(m_mutex);
  const record* r = find(p);
  if (r == nullptr) {
    return false;
  }
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  if (n == 0) {
    return addr < r->user + r->size || r->size == 0;
  }
  return addr + n <= r->user + r->size;
}

std::vector<canary_damage> device_memory::check_canaries() {
  std::vector<canary_damage> found;
  const std::lock_guard lock(m_mutex);
  const bool every_buffer = !m_host_guard || m_canaries_exposed;
  for (const auto& [user, r] : m_live) {
    const bool closed_now = closed(r);
    if (closed_now && !every_buffer) {
      continue; // nothing that could write it has run since the last check
    }
    if (closed_now) {
      set_access(r, true);
    }
    auto* first = r.map_base + r.front;
    const auto slack = static_cast<std::size_t>(reinterpret_cast<std::byte*>(user) - first);
    for (std::size_t i = 0; i < slack; ++i) {
      if (first[i] != std::byte{k_canary}) {
        found.push_back({r.size, slack - i, user});
        std::memset(first, k_canary, slack);
        break;
      }
    }
    if (closed_now) {
      set_access(r, false);
    }
  }
  m_canaries_exposed = false;
  return found;
}

void device_memory::release_all() {
  const std::lock_guard lock(m_mutex);
  for (const auto& [user, r] : m_live) {
    unmap(r);
  }
  for (const auto& r : m_freed) {
    unmap(r);
  }
  m_live.clear();
  m_freed.clear();
  m_bytes = 0;
}

void device_memory::set_access(const record& r, bool accessible) {
  std::byte* first = r.map_base + r.front;
  const auto end = reinterpret_cast<std::byte*>(r.user + r.size);
  mprotect(first, static_cast<std::size_t>(end - first),
           accessible ? PROT_READ | PROT_WRITE : PROT_NONE);
}

bool device_memory::closed(const record& r) const {
  return m_host_guard && m_open_scopes == 0 && r.opens == 0 && !r.host_visible;
}

void device_memory::set_access_all(bool accessible) {
  for (const auto& [user, r] : m_live) {
    if (!r.host_visible && r.opens == 0) {
      set_access(r, accessible);
    }
  }
}

void device_memory::set_host_guard(bool on) {
  const std::lock_guard lock(m_mutex);
  if (on != m_host_guard) {
    if (m_open_scopes == 0) {
      set_access_all(!on);
    }
    m_canaries_exposed = true; // host code may have written any canary while the guard was off
  }
  m_host_guard = on;
}

void device_memory::open() {
  const std::lock_guard lock(m_mutex);
  m_canaries_exposed = true;
  if (m_open_scopes++ == 0 && m_host_guard) {
    set_access_all(true);
  }
}

void device_memory::close() {
  const std::lock_guard lock(m_mutex);
  if (--m_open_scopes == 0 && m_host_guard) {
    set_access_all(false);
  }
}

std::uintptr_t device_memory::open_buffer(const void* p) {
  if (p == nullptr) {
    return 0;
  }
  const std::lock_guard lock(m_mutex);
  record* r = find(p);
  if (r == nullptr) {
    return 0;
  }
  if (closed(*r)) {
    set_access(*r, true);
  }
  ++r->opens;
  return r->user;
}

void device_memory::close_buffer(std::uintptr_t key) {
  if (key == 0) { // the host side of a copy: nothing was opened
    return;
  }
  const std::lock_guard lock(m_mutex);
  const auto it = m_live.find(key);
  if (it == m_live.end()) {
    return;
  }
  --it->second.opens;
  if (closed(it->second)) {
    set_access(it->second, false);
  }
}

std::size_t device_memory::bytes_in_use() const {
  const std::lock_guard lock(m_mutex);
  return m_bytes;
}

fault_place device_memory::locate(const void* addr) {
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  const int high = g_slot_high.load(std::memory_order_acquire);
  for (int i = 0; i < high; ++i) {
    const std::uintptr_t base = g_slots[i].map_base.load(std::memory_order_acquire);
    const auto& s = g_slots[i];
    if (base == 0 || a < base || a >= base + s.map_len) {
      continue;
    }
    fault_place place;
    place.buffer_size = s.size;
    place.start = s.user;
    if (s.freed.load(std::memory_order_acquire)) {
      place.where = fault_place::kind::freed;
      place.offset = a >= s.user ? a - s.user : 0;
    } else if (a < s.user) { // the front guard, or the canary before the buffer
      place.where = fault_place::kind::before_start;
      place.distance = s.user - a;
    } else if (a < s.user + s.size) { // only while the host guard keeps the buffer closed
      place.where = fault_place::kind::inside;
      place.offset = a - s.user;
    } else {
      place.where = fault_place::kind::past_end;
      place.distance = a - (s.user + s.size);
    }
    return place;
  }
  return {};
}

} // namespace cugrade::emu::detail
