#pragma once
/// \file
/// The runner's controls over the emulator: the order in which threads run between barriers (to
/// expose schedule-dependent results), the diagnostics it collected, where fatal faults are
/// reported, how many worker threads run blocks, and a full reset between kernels.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#pragma GCC visibility push(default)
namespace cugrade::emu {

/// Order in which the threads of a block run from one barrier (or warp rendezvous) to the next.
/// A kernel with a missing barrier gives different results under different orders.
enum class schedule_order { forward, reverse, shuffled };

/// Applies to launches that start after the call; `seed` drives `shuffled` (a fresh permutation
/// per block, derived from the seed and the block index).
void set_schedule_order(schedule_order order, std::uint64_t seed = 0);

/// A problem found while running a kernel. error_kind is one of "out_of_bounds",
/// "illegal_address", "barrier_divergence", "launch_failure", "deadlock", "race".
struct diagnostic {
  std::string error_kind;
  std::string message; ///< one sentence for the student
  std::string kernel;  ///< as written at the launch ("matmul_tiled_kernel", "ns::k<16>")
  std::array<unsigned, 3> block{};
  std::array<unsigned, 3> thread{};
  std::string file; ///< the student's file ("" where unknown)
  int line = 0;     ///< the student's line (0 where unknown)
};

/// Diagnostics recorded since the last call, oldest first; clears them.
std::vector<diagnostic> take_diagnostics();

/// Where a fatal fault (an out-of-bounds access caught by a guard page, a stray pointer) is
/// reported as one line of JSON before the process exits with status 86. -1 means stderr.
void set_fault_report_fd(int fd);

/// Exit status of a process stopped by a fatal fault in emulated code.
inline constexpr int fault_exit_status = 86;

/// Whether launches check shared-memory accesses: hazards between threads of different warps
/// with no __syncthreads() between (error_kind "race") and accesses outside a __shared__ array
/// ("out_of_bounds"), in every block of a launch of up to 512 blocks and in a fixed sample of
/// about 576 blocks of a larger one. On by default; the speed benchmark turns it off to compare.
void set_shared_checks(bool on);

/// The time limit, enforced by the emulator itself as "no progress" (docs/emulation.md, "The
/// time limit"): time in the launcher's host code and time in a launch during which no block
/// starts count against it; a launch whose blocks keep coming runs on, up to the limit plus
/// 1 us per launched thread. When it is up, the process ends as under the grader's SIGTERM: a
/// "timeout" fault event naming where a kernel thread was. 0 (the default) stops watching.
void set_time_limit(double seconds);

/// Number of CPU threads that run blocks (0: one per core; the default, or CUGRADE_EMU_WORKERS).
void set_worker_count(unsigned count);

/// Frees every device allocation and clears errors (sticky ones too), diagnostics and function
/// attributes: a fresh device.
void reset_device();

} // namespace cugrade::emu
#pragma GCC visibility pop
