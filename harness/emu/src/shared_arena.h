#pragma once
/// \file
/// The shared memory of the blocks one worker runs: one reserved address range in which every
/// `__shared__` array (and the launch's dynamic shared memory) has pages of its own, the array's
/// END against an inaccessible page:
///
///   [slack | Mds][guard][slack | Nds][guard][slack | dynamic][guard] ...
///
/// so an access just past any array faults and the fault handler can name the array, the index
/// and the thread. An array keeps its place from block to block (and launch to launch), so the
/// pages are made accessible once. The arena also answers which array an address belongs to,
/// for the bounds check of instrumented accesses and for the fault handler (lock-free).

#include <cstddef>
#include <cstdint>

#include "cugrade_emu/shared.h"

namespace cugrade::emu::detail {

/// One array's place in the arena.
struct shared_slot_record {
  const void* key = nullptr; ///< the declaration (null for the dynamic region)
  shared_array_info info{};
  std::size_t size = 0;          ///< the array's bytes (for the dynamic region: this launch's)
  std::byte* base = nullptr;     ///< the array's first byte
  std::byte* pages = nullptr;    ///< the first byte of its pages
  std::byte* guard = nullptr;    ///< the inaccessible page after it
  std::uint64_t block_stamp = 0; ///< the block that last garbage-filled it
};

/// Where an address lies relative to the arena's arrays.
struct shared_place {
  const shared_slot_record* slot = nullptr; ///< the array it belongs to, or null
  long long byte_offset = 0;                ///< from the array's start (negative: before it)
  [[nodiscard]] bool inside(std::size_t bytes) const {
    return slot != nullptr && byte_offset >= 0 &&
           static_cast<std::size_t>(byte_offset) + bytes <= slot->size;
  }
};

class shared_arena {
public:
  shared_arena();
  ~shared_arena();
  shared_arena(const shared_arena&) = delete;
  shared_arena& operator=(const shared_arena&) = delete;

  /// The slot of a static declaration, placed on first sight; null when the arena is full.
  shared_slot_record* static_slot(const void* key, std::size_t size, std::size_t align,
                                  const shared_array_info& info);
  /// The dynamic region for `bytes` bytes (aligned to 16), placed or moved as needed; null when
  /// the arena is full.
  shared_slot_record* dynamic_slot(std::size_t bytes);

  /// [begin, begin + bytes): every page the arrays and their guards use.
  [[nodiscard]] std::uintptr_t begin() const { return reinterpret_cast<std::uintptr_t>(m_base); }
  [[nodiscard]] std::size_t used_bytes() const { return m_next_page * page; }

  /// Whether [address, address + bytes) lies inside one array (the common case, checked first).
  [[nodiscard]] bool holds(std::uintptr_t address, std::size_t bytes) const {
    const std::uintptr_t offset = address - begin();
    if (offset >= used_bytes()) {
      return false;
    }
    const int owner = m_owner[offset / page];
    if (owner < 0) {
      return false;
    }
    const shared_slot_record& s = m_slots[owner];
    const auto base = reinterpret_cast<std::uintptr_t>(s.base);
    return address >= base && address + bytes <= base + s.size;
  }
  /// The array `address` belongs to: inside it, in the slack before it, or in its guard page.
  [[nodiscard]] shared_place locate(const void* address) const;

  /// Async-signal-safe: `address` in any worker's arena (for the fault handler).
  static shared_place locate_anywhere(const void* address);

  static constexpr std::size_t page = 4096;
  static constexpr std::size_t reserved_bytes = std::size_t{8} << 20;

private:
  static constexpr std::size_t k_pages = reserved_bytes / page;
  static constexpr int k_slots = 512;

  shared_slot_record* place(std::size_t bytes);
  static void fit(shared_slot_record& s, std::size_t size, std::size_t align);

  std::byte* m_base = nullptr;
  std::size_t m_next_page = 0;
  int m_registry = -1;
  shared_slot_record m_slots[k_slots];
  int m_slot_count = 0;
  std::int16_t m_owner[k_pages]; ///< slot of each page (its guard page included), or -1
  int m_dynamic = -1;            ///< the current dynamic region's slot
  static constexpr std::size_t k_recent = 16;
  int m_recent[k_recent]; ///< slots found lately, by a hash of their key
};

} // namespace cugrade::emu::detail
