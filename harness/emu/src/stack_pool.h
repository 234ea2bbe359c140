#pragma once
/// \file
/// Fiber stacks of one worker thread: one reserved region of fixed-size slots, each with a
/// PROT_NONE guard page below it (stacks grow down), committed lazily and reused LIFO so the
/// stacks in use stay warm in cache. A block needs at most one stack per thread plus one.

#include <cstddef>
#include <vector>

namespace cugrade::emu::detail {

class stack_pool {
public:
  static constexpr std::size_t stack_bytes = 128 * 1024;
  static constexpr unsigned capacity = 1024 + 2;

  stack_pool();
  ~stack_pool();
  stack_pool(const stack_pool&) = delete;
  stack_pool& operator=(const stack_pool&) = delete;

  /// A free slot (throws if none is left: a block never needs more than `capacity`).
  int acquire();
  void release(int slot);
  /// Initial stack pointer of a slot, staggered per slot so that the hot tops of many stacks do
  /// not all fall into the same cache sets.
  [[nodiscard]] void* top(int slot) const;
  [[nodiscard]] std::size_t usable(int slot) const;

  /// Async-signal-safe: whether addr lies in the guard page of any pool's stack.
  static bool is_guard(const void* addr);

private:
  static constexpr std::size_t guard_bytes = 4096;
  static constexpr std::size_t stride = guard_bytes + stack_bytes;

  [[nodiscard]] std::size_t colour(int slot) const;

  char* m_base = nullptr;
  unsigned m_prepared = 0;
  std::vector<int> m_free;
  int m_registry_index = -1;
};

} // namespace cugrade::emu::detail
