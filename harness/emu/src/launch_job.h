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

namespace cugrade::emu::detail {

struct launch_job {
  kernel_thunk thunk = nullptr;
  const void* closure = nullptr;
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
  /// fixed sample of the blocks of a large one (checked_block()).
  bool check_shared = false;

  /// Whether block `b` is one the checks look at: all of them up to 512 blocks; beyond, the
  /// first 256, the last 64 and every stride-th, about 576 in all, whatever the grid.
  [[nodiscard]] bool checked_block(std::uint64_t b) const {
    if (!check_shared || total_blocks <= 512) {
      return check_shared;
    }
    const std::uint64_t stride = (total_blocks + 255) / 256;
    return b < 256 || b + 64 >= total_blocks || b % stride == 0;
  }

  std::atomic<std::uint64_t> next_block{0};
  std::atomic<bool> aborted{false};
  std::atomic<int> error{cudaSuccess}; ///< the error the abort leaves
  std::atomic<bool> error_sticky{false};
  std::atomic<std::size_t> static_shared{0};
  std::atomic<bool> race_reported{false}; ///< the launch's first hazard is reported; look no more
  std::atomic<std::uint64_t> blocks_done{0};

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
