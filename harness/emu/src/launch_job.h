#pragma once
/// \file
/// What every block of one launch shares: the kernel thunk, the geometry, the limits, the schedule
/// order, which blocks the shared-memory checks look at, the launch-wide abort flag that stops the
/// remaining blocks after a fault, and the count of finished blocks the watchdog reads.

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "cugrade_emu/launch.h"
#include "harness/emu/src/state.h"
#include "harness/emu/src/warp_profile.h"

namespace cugrade::emu::detail {

class block_runner;

/// Whether blocks may run as region forms (set_region_forms; region_blocks.cpp).
bool region_forms_enabled();
/// What last_launch_region_blocks() says: the finished launch's count.
void note_region_blocks(std::uint64_t blocks);

struct launch_job {
  kernel_thunk thunk = nullptr;
  const void* closure = nullptr;
  /// The kernel's region form for a whole block (regions.h), or null: the blocks the checks
  /// do not look at run it.
  kernel_thunk block_thunk = nullptr;
  const void* block_closure = nullptr;
  launch_site site{};
  ::uint3 grid{};
  ::uint3 block{};
  unsigned threads_per_block = 0;
  std::uint64_t total_blocks = 0;
  std::size_t dynamic_shared = 0;
  std::size_t shared_limit = 0; ///< static + dynamic shared bytes a block may use
  schedule_choice schedule;
  std::uint64_t serial = 0; ///< launch counter; seeds the garbage patterns
  std::uint64_t chunk = 1;  ///< blocks a worker claims at once
  /// Shared-memory hazard and bounds checks: off, or on for every block of a small launch and a
  /// fixed sample of the blocks of a large one (block_runner::checked_block()).
  bool check_shared = false;
  /// Profiling (set_profiling): every block is checked, and its warps' requests counted here.
  bool profile = false;
  launch_counts profile_counts;

  /// Which blocks the checks look at: all of them up to all_checked_up_to blocks; beyond, the
  /// first checked_first, the last checked_last and every sample_stride()-th, at most 32 in
  /// all, whatever the grid. A missing barrier races in every block; a bound overrun or a race
  /// at the edge of the data shows in the first or the last blocks.
  static constexpr std::uint64_t all_checked_up_to = 32;
  static constexpr std::uint64_t checked_first = 16;
  static constexpr std::uint64_t checked_last = 8;
  [[nodiscard]] std::uint64_t sample_stride() const { return (total_blocks + 7) / 8; }

  std::atomic<std::uint64_t> next_block{0};
  std::atomic<bool> aborted{false};
  std::atomic<int> error{cudaSuccess}; ///< the error the abort leaves
  std::atomic<bool> error_sticky{false};
  std::atomic<std::size_t> static_shared{0};
  std::atomic<bool> race_reported{false}; ///< the launch's first hazard is reported; look no more
  std::atomic<std::uint64_t> blocks_done{0};
  std::atomic<std::uint64_t> region_blocks{0}; ///< blocks run as the kernel's region form
  /// The worker that launched (worker_pool::run), which goes on alone once the launch's global
  /// atomics are found contended (atomic_contention.h); null when one worker runs the launch.
  const block_runner* lead = nullptr;
  std::atomic<bool> contended{false};

  /// Claims the right to report the launch's failure: true for the first caller only.
  bool claim_failure(cudaError_t e, bool sticky) {
    if (aborted.exchange(true)) {
      return false;
    }
    error.store(e);
    error_sticky.store(sticky);
    return true;
  }
};

} // namespace cugrade::emu::detail
