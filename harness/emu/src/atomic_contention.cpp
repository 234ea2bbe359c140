#include "harness/emu/src/atomic_contention.h"

#include <algorithm>
#include <atomic>

namespace cugrade::emu::detail {
namespace {

constexpr unsigned k_table_bits = 10;
constexpr std::uint64_t k_tag_bits = 8;
/// About a millisecond at 2 to 4 GHz: shorter launches are not worth a decision.
constexpr std::uint64_t k_min_cycles = 2'000'000;
/// A timed atomic longer than this was preempted, not contended; it counts as this much.
constexpr std::uint64_t k_max_sample_cycles = 20'000;

/// The last worker to touch each (hashed) cache line: (line << k_tag_bits) | tag.
std::atomic<std::uint64_t> g_last_toucher[1u << k_table_bits];
std::atomic<std::uint64_t> g_next_tag{1};
std::atomic<contention_policy> g_policy{contention_policy::measure};
std::atomic<bool> g_last_launch_contended{false};

} // namespace

void set_contention_policy(contention_policy policy) {
  g_policy.store(policy);
}

contention_policy current_contention_policy() {
  return g_policy.load(std::memory_order_relaxed);
}

void note_launch_contended(bool contended) {
  g_last_launch_contended.store(contended);
}

bool last_launch_contended() {
  return g_last_launch_contended.load();
}

atomic_contention::atomic_contention()
    : m_tag(g_next_tag.fetch_add(1, std::memory_order_relaxed) % ((1u << k_tag_bits) - 1) + 1) {}

void atomic_contention::begin_launch() {
  m_launch_began = cycle_count();
  m_contended_cycles = 0;
}

void atomic_contention::note(std::uintptr_t address, std::uint64_t cycles) {
  const std::uint64_t line = address >> 6;
  const std::uint64_t slot = (line * 0x9E3779B97F4A7C15ull) >> (64 - k_table_bits);
  const std::uint64_t mine = (line << k_tag_bits) | m_tag;
  const std::uint64_t last = g_last_toucher[slot].exchange(mine, std::memory_order_relaxed);
  if ((last >> k_tag_bits) == line && last != mine) {
    m_contended_cycles += std::min(cycles, k_max_sample_cycles);
  }
}

bool atomic_contention::costly() const {
  switch (current_contention_policy()) {
  case contention_policy::never:
    return false;
  case contention_policy::always:
    return true;
  case contention_policy::measure:
    break;
  }
  const std::uint64_t elapsed = cycle_count() - m_launch_began;
  return elapsed >= k_min_cycles && m_contended_cycles * sample_period * 4 >= elapsed;
}

} // namespace cugrade::emu::detail
