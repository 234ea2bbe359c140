#pragma once
/// \file
/// Running one kernel's plan in its own runner process, under a wall-clock limit that kills the
/// runner's whole process group. A crash, a hang or a sticky CUDA error stays in that process.

#include "grader/core/case_evaluation.h"
#include "grader/runners/run_context.h"
#include "harness/core/result.h"
#include "harness/protocol/protocol.h"

#include <filesystem>

namespace cugrade::grader {

struct kernel_run {
  protocol::runner_log log;
  runner_exit exit;
  double wall_seconds = 0;
};

/// Writes the plan into plan.output_dir, runs `runner` on it (on `context`'s GPU) and reads its
/// events back.
/// Fails only when the runner cannot be started (infrastructure). A plan with a time limit of
/// its own (the emulator's watchdog, plan::time_limit_seconds) is killed only at
/// backstop_seconds() of it; its own "timeout" fault event reads as a timeout.
/// `time_limit_seconds` is the limit the student is told about.
/// When the grader kills a runner that enforces `limit` itself: ten times later (a launch that
/// keeps progressing may run past the limit, up to a cap scaled to its threads), and at least
/// five minutes later.
[[nodiscard]] inline double backstop_seconds(double limit) {
  return limit * 10 > limit + 300 ? limit * 10 : limit + 300;
}

[[nodiscard]] result<kernel_run> run_kernel(const runners::run_context& context,
                                            const std::filesystem::path& runner,
                                            const protocol::plan& plan, double time_limit_seconds);

} // namespace cugrade::grader
