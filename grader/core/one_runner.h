#pragma once
/// \file
/// Correctness of several kernels in one runner. On the GPU every runner pays a CUDA start, and
/// the machine makes them one at a time whichever GPU they are for (docs/batch.md, "Throughput"),
/// so a grading's kernels first run together: one launcher after another over the same cases
/// (plan::more_launchers). A kernel whose every run there completed without a fault takes its
/// outcomes from that run; a kernel that faulted or never ran (a fault or a hang stops the
/// runner) runs alone as before, so every verdict with a fault comes from the kernel's own runner.
/// A kernel that hung there takes its timeout from there when it had at least the time limit it
/// would have had alone (stopped_launcher_share): waiting for a hang twice would hold the GPU,
/// whose timing waits for every shared run to end, for twice the limit.

#include "harness/protocol/protocol.h"

#include <cstddef>
#include <optional>

namespace cugrade::grader {

/// Launcher `j`'s part of the log of a runner that ran launchers one after another over `n`
/// cases, `runs` runs each: its records renumbered from case 0 (the output files keep the names
/// the runner gave them), as if the launcher had run alone and finished. Nothing when any run
/// of its cases is missing, did not complete or faulted, or the log is not whole (tampered, a
/// launcher missing, not started).
[[nodiscard]] std::optional<protocol::runner_log>
launcher_share(const protocol::runner_log& log, std::size_t j, std::size_t n, int runs);

/// Launcher `j`'s part of the log of that runner when its time limit stopped it during one of
/// j's cases: j's records renumbered as launcher_share does, its open case still open, so that
/// read with a timed-out exit it says what j's own runner stopped at the limit would say. Only
/// when j's first case began (the runner's clock, runner_log::began_seconds) at most
/// `latest_begin` seconds in: the runner's time beyond the kernel's own limit, so that j had at
/// least the limit it would have had alone. Nothing when a run of j's cases before the open one
/// did not complete or faulted, or the log is not whole.
[[nodiscard]] std::optional<protocol::runner_log>
stopped_launcher_share(const protocol::runner_log& log, std::size_t j, std::size_t n, int runs,
                       double latest_begin);

} // namespace cugrade::grader
