#pragma once
/// \file
/// Global atomics that several workers aim at the same few cache lines (a histogram's 256 bins,
/// counted by every block) cost a CPU far more than the work they do: each one waits for its line
/// to come over from the other core. On the development machine one atomic took 5.7 ns on one
/// thread and 35 ns (wall) with two threads on 256 shared counters, and the reference histograms
/// graded faster on one worker than on two.
///
/// So each worker times one global atomic in `sample_period` (shared-memory atomics stay on their
/// worker and are left out) and writes its cache line, tagged with the worker, into a table the
/// workers share: a timed atomic on a line another worker touched last is contended. When a
/// worker's contended atomics, scaled by the period, come to a quarter of its time in the launch,
/// the launch is contended (launch_job::contended) and goes on on its lead worker (the launching
/// thread) alone: the others finish the chunk they hold, then wait while the lead keeps starting
/// blocks. Nothing a kernel can observe changes: blocks are still claimed in order, an atomic is
/// still a hardware atomic, a claimed block still runs to its end, and a waiting worker that sees
/// the lead stall (its block waits for one nobody has claimed yet) claims again.

#include <cstdint>

#include "cugrade_emu/shared_access.h" // cycle_count
#include "cugrade_emu_control.h"

namespace cugrade::emu::detail {

void set_contention_policy(contention_policy policy);
[[nodiscard]] contention_policy current_contention_policy();
/// What run_launch records when a launch ends, and last_launch_contended() reads.
void note_launch_contended(bool contended);
[[nodiscard]] bool last_launch_contended();

class atomic_contention {
public:
  /// One global atomic in this many is timed (atomic_note in shared_access.h counts them down).
  static constexpr unsigned sample_period = 64;

  atomic_contention();

  /// A new launch: the measure starts again.
  void begin_launch();
  /// A timed global atomic at `address` that took `cycles`.
  void note(std::uintptr_t address, std::uint64_t cycles);
  /// Whether contended atomics took a quarter of this worker's time since the launch began
  /// (measured over at least a millisecond or so).
  [[nodiscard]] bool costly() const;

private:
  std::uint64_t m_launch_began = 0;
  std::uint64_t m_contended_cycles = 0;
  std::uint64_t m_tag; ///< this worker's mark in the shared table of lines
};

} // namespace cugrade::emu::detail
