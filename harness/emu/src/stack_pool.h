#pragma once
/// \file
/// Fiber stacks of one worker thread: fixed-size slots, each with a PROT_NONE guard page below it
/// (stacks grow down), reserved in chunks of 64 as needed (so a sandbox's address-space limit is
/// not spent on stacks a block never uses), committed lazily, and reused last-in first-out so the
/// stacks in use stay warm in cache. A block needs at most one stack per thread plus one.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cugrade::emu::detail {

class stack_pool {
public:
  static constexpr std::size_t stack_bytes = 128 * 1024;

  stack_pool() = default;
  ~stack_pool();
  stack_pool(const stack_pool&) = delete;
  stack_pool& operator=(const stack_pool&) = delete;

  /// A free slot (throws if no memory can be reserved for one).
  int acquire();
  void release(int slot);
  /// Initial stack pointer of a slot, staggered per slot so that the hot tops of many stacks do
  /// not all fall into the same cache sets.
  [[nodiscard]] void* top(int slot) const { return slot_base(slot) + stride - colour(slot); }
  [[nodiscard]] std::size_t usable(int slot) const { return stack_bytes - colour(slot); }

  /// Async-signal-safe: whether addr lies in the guard page of any pool's stack.
  static bool is_guard(const void* addr);
  /// Async-signal-safe: the chunk of fiber stacks (of any pool) that holds addr, as
  /// [begin, end): a thread's local variables are there. False when no chunk holds it.
  static bool chunk_around(const void* addr, std::uintptr_t& begin, std::uintptr_t& end);

private:
  static constexpr std::size_t guard_bytes = 4096;
  static constexpr std::size_t stride = guard_bytes + stack_bytes;
  static constexpr int chunk_slots = 64;

  [[nodiscard]] static std::size_t colour(int slot) {
    return static_cast<std::size_t>((slot * 7) % 32) * 128;
  }
  [[nodiscard]] char* slot_base(int slot) const {
    return m_chunks[static_cast<std::size_t>(slot / chunk_slots)] +
           static_cast<std::size_t>(slot % chunk_slots) * stride;
  }
  void add_chunk();

  std::vector<char*> m_chunks;
  std::vector<int> m_registry;
  int m_prepared = 0;
  std::vector<int> m_free;
};

} // namespace cugrade::emu::detail
