#pragma once
/// \file
/// Correctness of several kernels in one runner. On the GPU every runner pays a CUDA start, and
/// the machine makes them one at a time whichever GPU they are for (docs/batch.md, "Throughput"),
/// so a grading's kernels first run together: one launcher after another over the same cases
/// (plan::more_launchers). A kernel whose every run there completed without a fault takes its
/// outcomes from that run; a kernel that faulted, hung or never ran (a fault or a hang stops the
/// runner) runs alone as before, so every verdict with a fault comes from the kernel's own runner.

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

} // namespace cugrade::grader
