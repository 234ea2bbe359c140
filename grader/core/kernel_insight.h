#pragma once
/// \file
/// A timed kernel's insights (docs/insight.md): its launcher runs once more, on its problem's
/// profile shape, with the emulator's warp profiler on (add_emulated_insight) or under Nsight
/// Compute on the GPU (add_measured_insight); the profile becomes the kernel's metrics and the
/// causes that cost it time. Never costs points, never fails a grading: a profile that cannot be
/// made leaves a note instead.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "grader/core/kernel_run.h"
#include "grader/insight/kernel_comparison.h"
#include "grader/perf/kernel_counters.h"
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

/// Profiles `k` (a kernel that passed) and sets its profile and insights; its modelled memory
/// time goes into `profiled`, for comparisons between the grading's kernels
/// (insight::lead_with_comparisons).
void add_emulated_insight(const insight_request& request, const plan_runner& run,
                          reports::kernel_report& k, std::vector<insight::kernel_time>& profiled);

/// What measuring a kernel with Nsight Compute needs.
struct counters_request {
  const spec::assignment_spec& spec;
  perf::counters_setup setup;
  std::string tool;               ///< "Nsight Compute 2025.3.1.0"
  std::filesystem::path library;  ///< the submission built for the GPU
  std::filesystem::path work_dir; ///< each kernel's counter run writes under it
};

/// Measures `k` (a kernel that passed) with Nsight Compute and sets its profile and insights;
/// the kernel's measured duration goes into `profiled`, for comparisons. Gives the reason when this
/// machine cannot measure it (the counters restricted to administrators, ncu failing to start or
/// failing before the runner started): the caller then profiles it in emulation and says why. A run
/// the submission spoiled leaves a note and no insight.
[[nodiscard]] std::optional<std::string>
add_measured_insight(const counters_request& request, reports::kernel_report& k,
                     std::vector<insight::kernel_time>& profiled);

} // namespace cugrade::grader
