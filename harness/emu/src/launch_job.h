#pragma once
/// \file
/// What every block of one launch shares: the kernel thunk, the geometry, the limits, the schedule
/// order, and the launch-wide abort flag that stops the remaining blocks after a fault.

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

  std::atomic<std::uint64_t> next_block{0};
  std::atomic<bool> aborted{false};
  std::atomic<int> error{cudaSuccess}; ///< the error the abort leaves
  std::atomic<bool> error_sticky{false};
  std::atomic<std::size_t> static_shared{0};

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
