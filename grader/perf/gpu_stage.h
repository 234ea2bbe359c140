#pragma once
/// \file
/// What every stage of a grading on the GPU after correctness is to its caller (grader/core's
/// gpu_stages.cpp): the sanitizer's checks (sanitizer_stage.h) and the timing against the
/// reference (timing_stage.h). A stage adds its findings to the reports of the kernels that
/// correctness graded and gives how long each of its parts took.

#include "harness/core/result.h"
#include "reports/report.h"

#include <filesystem>
#include <functional>
#include <string_view>
#include <vector>

namespace cugrade::perf {

/// One stage's input: the kernels and the library they were built into.
struct gpu_stage_input {
  std::vector<reports::kernel_report*> kernels; ///< every kernel correctness graded
  std::filesystem::path student_library;
  /// Called once the stage has no runner left on the GPU, for a caller that hands the GPU on (a
  /// batch's next grading); may be empty. Only the timing stage holds the GPU alone.
  std::function<void()> runs_ended;
};

class gpu_stage {
public:
  virtual ~gpu_stage() = default;
  gpu_stage() = default;
  gpu_stage(const gpu_stage&) = delete;
  gpu_stage& operator=(const gpu_stage&) = delete;

  /// The stage's name in the report's stage table ("sanitizer", "timing").
  [[nodiscard]] virtual std::string_view name() const = 0;
  /// Runs the stage over those of `in.kernels` it applies to (their status, the spec, the
  /// options), adding what it finds to their reports; gives the stage table's rows, named name().
  /// Fails only for infrastructure (a program that cannot start, a reference that does not build):
  /// the grading is then not gradable.
  [[nodiscard]] virtual result<std::vector<reports::stage_timing>>
  run(const gpu_stage_input& in) = 0;
};

} // namespace cugrade::perf
