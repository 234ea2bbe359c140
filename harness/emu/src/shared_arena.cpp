#include "harness/emu/src/shared_arena.h"

#include <sys/mman.h>

#include <atomic>

#include "harness/core/error.h"

namespace cugrade::emu::detail {
namespace {

// Every worker's arena, for the fault handler (lock-free reads).
constexpr int k_arenas = 1024;
std::atomic<const shared_arena*> g_arenas[k_arenas];

int register_arena(const shared_arena* arena) {
  for (int i = 0; i < k_arenas; ++i) {
    const shared_arena* expected = nullptr;
    if (g_arenas[i].compare_exchange_strong(expected, arena)) {
      return i;
    }
  }
  return -1; // not registered: a fault there reads as an illegal address
}

std::size_t round_up(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

} // namespace

shared_arena::shared_arena() {
  void* map =
      mmap(nullptr, reserved_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) {
    CUGRADE_THROW("cugrade emulator: cannot reserve shared memory (mmap failed; is the "
                  "address-space limit too low?)");
  }
  m_base = static_cast<std::byte*>(map);
  for (auto& o : m_owner) {
    o = -1;
  }
  for (auto& r : m_recent) {
    r = -1;
  }
  m_registry = register_arena(this);
}

shared_arena::~shared_arena() {
  if (m_registry >= 0) {
    g_arenas[m_registry].store(nullptr);
  }
  munmap(m_base, reserved_bytes);
}

// A slot of at least `bytes`, its end against a fresh guard page.
shared_slot_record* shared_arena::place(std::size_t bytes) {
  const std::size_t pages = round_up(bytes == 0 ? 1 : bytes, page) / page;
  if (m_slot_count == k_slots || m_next_page + pages + 1 > k_pages) {
    return nullptr;
  }
  std::byte* first = m_base + m_next_page * page;
  if (mprotect(first, pages * page, PROT_READ | PROT_WRITE) != 0) {
    return nullptr;
  }
  const int index = m_slot_count;
  shared_slot_record& s = m_slots[index];
  s = {};
  s.pages = first;
  s.guard = first + pages * page;
  s.base = s.guard;
  for (std::size_t p = 0; p <= pages; ++p) { // the guard page belongs to the slot too
    m_owner[m_next_page + p] = static_cast<std::int16_t>(index);
  }
  m_next_page += pages + 1;
  // Published last: the fault handler reads slots up to the count.
  std::atomic_thread_fence(std::memory_order_release);
  m_slot_count = index + 1;
  return &s;
}

// Puts an array of `size` bytes at the end of its slot: its start is guard - size, aligned down
// where its type asks for more alignment than its size gives (a few bytes of slack follow it).
void shared_arena::fit(shared_slot_record& s, std::size_t size, std::size_t align) {
  const auto start = (reinterpret_cast<std::uintptr_t>(s.guard) - size) / align * align;
  s.base = reinterpret_cast<std::byte*>(start);
  s.size = size;
}

shared_slot_record* shared_arena::static_slot(const void* key, std::size_t size, std::size_t align,
                                              const shared_array_info& info) {
  // Every thread of every block asks at its declaration: a small cache keyed by the declaration
  // answers without a search.
  const auto line = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(key) >> 3) % k_recent;
  if (const int hit = m_recent[line]; hit >= 0 && m_slots[hit].key == key) {
    return &m_slots[hit];
  }
  for (int i = 0; i < m_slot_count; ++i) {
    if (m_slots[i].key == key) {
      m_recent[line] = i;
      return &m_slots[i];
    }
  }
  shared_slot_record* s = place(size + align);
  if (s != nullptr) {
    fit(*s, size, align);
    s->key = key;
    s->info = info;
  }
  return s;
}

shared_slot_record* shared_arena::dynamic_slot(std::size_t bytes) {
  constexpr std::size_t align = 16; // what CUDA guarantees for dynamic shared memory
  shared_slot_record* s = m_dynamic >= 0 ? &m_slots[m_dynamic] : nullptr;
  if (s == nullptr || static_cast<std::size_t>(s->guard - s->pages) < bytes + align) {
    s = place(bytes + align); // a region too small for this launch is left behind
    if (s == nullptr) {
      return nullptr;
    }
    m_dynamic = static_cast<int>(s - m_slots);
  }
  fit(*s, bytes, align);
  return s;
}

shared_place shared_arena::locate(const void* address) const {
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  shared_place where;
  if (a < begin() || a >= begin() + used_bytes()) {
    return where;
  }
  const int owner = m_owner[(a - begin()) / page];
  if (owner < 0 || owner >= m_slot_count) {
    return where;
  }
  where.slot = &m_slots[owner];
  where.byte_offset = static_cast<long long>(a) -
                      static_cast<long long>(reinterpret_cast<std::uintptr_t>(m_slots[owner].base));
  return where;
}

shared_place shared_arena::locate_anywhere(const void* address) {
  for (const auto& a : g_arenas) {
    const shared_arena* arena = a.load(std::memory_order_acquire);
    if (arena != nullptr) {
      const shared_place where = arena->locate(address);
      if (where.slot != nullptr) {
        return where;
      }
    }
  }
  return {};
}

} // namespace cugrade::emu::detail
