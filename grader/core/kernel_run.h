#pragma once
/// \file
/// Running one kernel's plan in its own runner process, under a wall-clock limit that kills the
/// runner's whole process group. A crash, a hang or a sticky CUDA error stays in that process.

#include "grader/core/case_evaluation.h"
#include "harness/core/result.h"
#include "harness/protocol/protocol.h"

#include <filesystem>

namespace cugrade::grader {

struct kernel_run {
  protocol::runner_log log;
  runner_exit exit;
  double wall_seconds = 0;
};

/// Writes the plan into plan.output_dir, runs `runner` on it and reads its events back.
/// Fails only when the runner cannot be started (infrastructure).
[[nodiscard]] result<kernel_run> run_kernel(const std::filesystem::path& runner,
                                            const protocol::plan& plan, double time_limit_seconds);

} // namespace cugrade::grader
