#pragma once
/// \file
/// The runner's controls over the emulator: the order in which threads run between barriers (to
/// expose schedule-dependent results), the diagnostics it collected, where fatal faults are
/// reported, how many worker threads run blocks, and a full reset between kernels.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
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

/// A host API call that failed over its arguments: "cudaMemcpy", and what was wrong ("with
/// cudaMemcpyDeviceToHost, the source must be device memory (from cudaMalloc), and it is host
/// memory"). Copies made by cudaMemcpyAsync and cudaMemcpy2D are named "cudaMemcpy" too.
struct failed_api_call {
  std::string call;
  std::string why;
};

/// The call behind the current last error (cudaGetLastError's), where that call named itself;
/// nothing for a launch's error, a kernel's fault, or no error.
std::optional<failed_api_call> last_failed_call();

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

/// Whether the blocks those checks do not look at run as their kernel's region form where it
/// has one (docs/emulation.md, "Region forms"): each stretch between two barriers for every
/// thread in turn, with no fiber switch. On by default (CUGRADE_EMU_REGIONS=0 turns it off);
/// the speed benchmark turns it off to compare.
void set_region_forms(bool on);
/// Blocks of the last launch that ran as their kernel's region form.
std::uint64_t last_launch_region_blocks();

/// Whether device buffers are closed to host code (docs/emulation.md, "Host code and device
/// memory"): the runner turns it on around each call of a launcher, so a launcher that
/// dereferences a device pointer faults as it would on a GPU (a "crash", reported as one fault
/// event naming the access). The runtime's own copies, sets and launches still reach every
/// buffer. Off by default.
void set_host_guard(bool on);

/// The time limit, enforced by the emulator itself as "no progress" (docs/emulation.md, "The
/// time limit"): time in the launcher's host code and time in a launch during which no block
/// starts count against it; a launch whose blocks keep coming runs on, up to the limit plus
/// 1 us per launched thread. When it is up, the process ends as under the grader's SIGTERM: a
/// "timeout" fault event naming where a kernel thread was. 0 (the default) stops watching.
void set_time_limit(double seconds);

/// Number of CPU threads that run blocks (0: one per core; the default, or CUGRADE_EMU_WORKERS).
void set_worker_count(unsigned count);

/// How launches treat global atomics that several workers aim at the same few cache lines (a
/// histogram's bins; docs/emulation.md, "Contended atomics"): `measure` (the default) times a
/// sample of them and, once contended ones take a quarter of a worker's time, lets the launching
/// thread finish the launch alone; `never` keeps every worker on; `always` treats every launch
/// with more than one worker as contended from its first chunk on (for tests).
enum class contention_policy { measure, never, always };
void set_contention_policy(contention_policy policy);
/// Whether the last launch was found contended (and went on on the launching thread alone).
bool last_launch_contended();

/// Warp requests of one kind at one source line of a profiled launch (docs/insight.md).
struct access_counts {
  int line = 0;
  std::string space; ///< "global" or "shared"
  std::string op;    ///< "load", "store" or "atomic"
  std::uint64_t requests = 0;    ///< warp requests: the lanes' k-th accesses between barriers
  std::uint64_t units = 0;       ///< 32-byte sectors (global) or bank wavefronts (shared)
  std::uint64_t ideal_units = 0; ///< what the same bytes would take, packed
  std::uint64_t lanes = 0;       ///< lanes taking part, summed over the requests
  std::uint64_t bytes = 0;       ///< bytes the lanes asked for
  /// The requests the same lanes would need packed into the fewest warps (per line and barrier
  /// interval): requests well above it mean the working threads are spread over many warps.
  std::uint64_t packed_requests = 0;
};

/// What one profiled launch did to memory.
struct launch_profile {
  std::string kernel; ///< as written at the launch
  std::string file;   ///< the launch's file (the accesses' lines are in the kernel's)
  std::array<unsigned, 3> grid{};
  std::array<unsigned, 3> block{};
  std::size_t static_shared = 0;  ///< bytes of __shared__ arrays a block declared
  std::size_t dynamic_shared = 0; ///< the launch's third parameter
  std::uint64_t left_out = 0;     ///< accesses not counted (past warp_profiler's bound)
  std::vector<access_counts> accesses;
};

/// Profiling: launches that start after the call check every block and count their warps'
/// memory requests (slow; for one small shape). Off by default.
void set_profiling(bool on);
/// The profiles of the launches since the last call, oldest first; clears them.
std::vector<launch_profile> take_profiles();

/// Frees every device allocation and clears errors (sticky ones too), diagnostics and function
/// attributes: a fresh device.
void reset_device();

} // namespace cugrade::emu
#pragma GCC visibility pop
