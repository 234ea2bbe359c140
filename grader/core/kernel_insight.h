#pragma once
/// \file
/// A timed kernel's insights in emulation (docs/insight.md): its launcher runs once more, on its
/// problem's profile shape, with the emulator's warp profiler on; the profile becomes the
/// kernel's metrics and the causes that cost it time. Never costs points, never fails a grading:
/// a profile that cannot be made leaves a note instead.

#include <filesystem>
#include <functional>
#include <string>

#include "grader/core/kernel_run.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/result.h"
#include "reports/report.h"

namespace cugrade::grader {

/// Starts a runner on a plan with a time limit (grade.cpp's run_kernel_on_device).
using plan_runner = std::function<result<kernel_run>(const protocol::plan&, double)>;

struct insight_request {
  const spec::assignment_spec& spec;
  std::filesystem::path library;  ///< the submission built for emulation
  std::filesystem::path work_dir; ///< the profile's runner writes here
  std::string source_text;        ///< the student's file, to quote the lines
};

/// Profiles `k` (a kernel that passed) and sets its profile and insights.
void add_emulated_insight(const insight_request& request, const plan_runner& run,
                          reports::kernel_report& k);

} // namespace cugrade::grader
