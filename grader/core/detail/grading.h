#pragma once
/// \file
/// One grading as the files of the pipeline share it: grade.cpp walks it through
/// submission_intake.cpp (deadline, fetch, copy, build request), correctness_stage.cpp (every
/// kernel's runners and verdict), gpu_stages.cpp (sanitizer and timing on the GPU),
/// insight_stage.cpp (profiles and insights) and best_of.cpp (the deadline's best_of mode).

#include "grader/build/build.h"
#include "grader/core/backend_choice.h"
#include "grader/core/case_evaluation.h"
#include "grader/core/grade.h"
#include "grader/core/kernel_run.h"
#include "grader/fetch/fetch.h"
#include "grader/fetch/submission_copy.h"
#include "grader/layout/layout.h"
#include "grader/perf/gpu_evaluation.h"
#include "grader/runners/run_context.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/elapsed.h"
#include "harness/core/result.h"
#include "harness/protocol/protocol.h"
#include "reports/report.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::grader::detail {

inline void say(const grade_options& o, const std::string& message) {
  if (o.progress) {
    o.progress(message);
  }
}

inline void reached(const grade_options& o, grade_stage stage) {
  if (o.hooks.reached) {
    o.hooks.reached(stage);
  }
}

/// The deadline that chooses the commit (--deadline, else the spec's), read once per grading.
struct grading_deadline {
  bool given = false;                                        ///< --deadline or the spec names one
  std::optional<std::chrono::system_clock::time_point> when; ///< absent: none, or unreadable
  std::string error; ///< why a given deadline could not be read (a usage mistake)
};

/// Reads the deadline a grading with `o` of `spec` uses.
[[nodiscard]] grading_deadline read_deadline(const grade_options& o,
                                             const spec::assignment_spec& spec);

struct grading {
  const grade_options& options;
  const layout& paths;
  spec::assignment_spec spec;
  backend_choice backend;
  reports::report report;
  grading_deadline deadline{};
  /// Grade the branch's newest commit whatever the deadline (latest_with_penalty, and the second
  /// grading of best_of).
  bool newest = false;
  /// The branch's newest commit, when the deadline chose among its commits.
  std::optional<std::string> newest_commit{};
  /// The grading's copy of the source, for what diagnosis reads in the text (early_exits.h).
  std::string source_text{};
  /// Where every runner of this grading runs (the GPU a batch pinned it to), set once it built.
  runners::run_context context{};
};

// Runs `work` and records how long it took as a stage of the report (the profile of where a
// grading's time goes: docs/timing.md, "Cost").
template <class F>
auto timed_stage(grading& g, const char* stage, const std::string& kernel, F&& work) {
  const auto started = std::chrono::steady_clock::now();
  auto r = work();
  g.report.stages.push_back({stage, kernel, seconds_since(started), {}});
  return r;
}

/// The report as it stands, written: what every grading that reached a verdict returns.
[[nodiscard]] inline grade_outcome written_report(const grading& g) {
  return {grade_exit::report_written, "", g.report, {}, {}};
}

// submission_intake.cpp
/// The CUDA_VISIBLE_DEVICES value for this grading's runners; the pinned device's identity
/// replaces the backend's.
[[nodiscard]] std::string devices_for_runs(grading& g);
[[nodiscard]] result<fetch::fetched_submission> fetch_for(const grading& g);
/// The submission's files copied into the grading's own folder, within the spec's limits; what
/// was left out is noted in the report.
[[nodiscard]] result<fetch::copied_submission> take_in(grading& g,
                                                       const fetch::fetched_submission& fetched,
                                                       const std::filesystem::path& work_dir);
[[nodiscard]] build::build_request build_request_for(const grading& g,
                                                     const std::filesystem::path& source,
                                                     const std::filesystem::path& work_dir);

// correctness_stage.cpp
/// One correctness runner. On the GPU it holds the device's lock shared: correctness runs of
/// several gradings may overlap, but none runs while another grading is timing on that GPU.
[[nodiscard]] result<kernel_run> run_kernel_on_device(const grading& g, const protocol::plan& plan,
                                                      double time_limit);
// One kernel's correctness verdict, and how long it took.
struct checked_kernel {
  result<reports::kernel_report> report;
  std::vector<reports::stage_timing> stages;
};

/// The correctness of every asked kernel, in the spec's order: on the GPU the kernels first share
/// one runner (one_runner.h); those it leaves to run alone then run at once when `parallel`, each
/// in its own runners. Each kernel's stages go into the report; fails (infrastructure) at the
/// first kernel that could not be run, with the report's stages up to it.
[[nodiscard]] result<std::vector<checked_kernel>>
check_correctness(grading& g, const build::build_outcome& built,
                  const std::filesystem::path& work_dir, bool parallel);

// gpu_stages.cpp
/// On the GPU, the evaluator of the stages after correctness: kernels that pass are timed against
/// the reference (verified, A B B A) and checked under compute-sanitizer where the spec asks for
/// it (docs/timing.md).
void prepare_gpu_stages(grading& g, std::optional<perf::gpu_evaluator>& gpu,
                        const std::filesystem::path& work_dir);
/// The sanitizer checks, the insights and the timing of the `checked` kernels, their stages into
/// the report; fails (infrastructure) with the message the report is not gradable for.
[[nodiscard]] result<void> run_gpu_stages(grading& g, perf::gpu_evaluator& gpu,
                                          std::vector<checked_kernel>& checked,
                                          const std::filesystem::path& library,
                                          const std::filesystem::path& source,
                                          const std::filesystem::path& work_dir);

// insight_stage.cpp
/// Insights in emulation for every kernel that wants them: one profiled run each
/// (kernel_insight.h).
void profile_in_emulation(grading& g, const std::filesystem::path& library,
                          const std::filesystem::path& work);
/// Insights on the GPU: Nsight Compute, under the GPU's exclusive lock, kernel by kernel; the
/// emulator's counts where this machine cannot read the counters (docs/insight.md).
void profile_on_gpu(grading& g, perf::gpu_evaluator& gpu,
                    const std::vector<reports::kernel_report*>& kernels,
                    const std::filesystem::path& library, const std::filesystem::path& source,
                    const std::filesystem::path& work);

// grade.cpp and best_of.cpp
/// Fetch, build, correctness, then the GPU's stages or emulation's insights: the report before
/// its scores are finished.
[[nodiscard]] grade_outcome grade_submission(grading& g);
/// The spec's best_of mode: once the deadline graded an older commit, the branch's newest is
/// graded too, and the higher score after its late penalty is kept (docs/git.md).
[[nodiscard]] grade_outcome best_of(grade_outcome on_time, const grading& first);

} // namespace cugrade::grader::detail
