#pragma once
/// \file
/// The time limit, as "no progress": a thread of its own that wakes every 100 ms. It charges to
/// the limit the time outside launches (the launcher's host code) and the time inside a launch
/// during which no block started, so a launch whose blocks keep coming runs on; a launch still
/// runs at most its cap, the limit plus 1 us per launched thread (2.2 minutes more for 2^27
/// threads; the grader's own backstop, ten times the limit, bounds longer ones). When the charge
/// reaches the limit, or a launch its cap, the watchdog stops the
/// process as the grader's SIGTERM would: a thread inside a kernel reports where it was (a
/// "timeout" fault event with its program counter), or, in host code, the watchdog reports the
/// timeout itself.

#include <atomic>
#include <cstdint>

namespace cugrade::emu::detail {

/// Starts watching with `limit_seconds` (0 or less: stop watching). The charge starts at zero.
void set_watchdog_limit(double limit_seconds);

/// A launch of `threads` threads begins / ends (the launching thread calls these).
void watchdog_launch_begins(std::uint64_t threads);
void watchdog_launch_ends();

/// A counter of blocks started for one worker's block runner, which the watchdog reads as
/// progress: only that worker writes it (a relaxed increment). Counters live as long as the
/// process, so a runner that is destroyed leaves nothing dangling.
std::atomic<std::uint64_t>* watchdog_progress_counter();

/// Seconds a launch may run past the limit per launched thread, while its blocks keep coming.
inline constexpr double watchdog_seconds_per_thread = 1e-6;

} // namespace cugrade::emu::detail
