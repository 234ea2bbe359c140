#pragma once
/// \file
/// One grading as the files of the pipeline share it: grade.cpp walks it through
/// submission_intake.cpp (deadline, fetch, copy, build request), correctness_stage.cpp (every
/// kernel's runners and verdict), gpu_stages.cpp (sanitizer and timing on the GPU),
/// insight_stage.cpp (profiles and insights) and best_of.cpp (the deadline's best_of mode). Each
/// stage returns its result into the walk's stage_results; assemble_report.cpp makes the report
/// from them once, at the end.

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
  /// The backend chosen; the device's identity follows the GPU grade_hooks::before_runs pinned.
  backend_choice backend;
  grading_deadline deadline{};
  /// Grade the branch's newest commit whatever the deadline (latest_with_penalty, and the second
  /// grading of best_of).
  bool newest = false;
  /// The branch's newest commit, when the deadline chose among its commits.
  std::optional<std::string> newest_commit{};
  /// The grading's copy of the source, for what diagnosis reads in the text (source_facts.h).
  std::string source_text{};
  /// Where every runner of this grading runs (the GPU a batch pinned it to), set once it built.
  runners::run_context context{};
  /// How long each stage took, in the order they ran (the report's stage table: docs/timing.md).
  std::vector<reports::stage_timing> timings{};
};

/// What the stages of one walk (grade_submission) produced. Each stage returns its result and
/// the walk keeps it here; no stage writes the report, which assemble_report makes from this once.
struct stage_results {
  /// How the walk ended: verdicts (a report is written), a usage mistake of whoever runs
  /// cugrade (nothing is written), or a failure of the machine (the report is not gradable).
  enum class ending { verdicts, usage_error, not_gradable };
  ending end = ending::verdicts;
  std::string error; ///< why, for usage_error and not_gradable
  std::optional<fetch::fetched_submission> fetched; ///< fetch: the commit, its time, its notes
  std::vector<std::string> copy_notes;               ///< take_in: what the copy left out
  /// Why there was nothing to build (no contract file, an empty repository): every kernel asked
  /// gets build_error.
  std::optional<std::string> nothing_built;
  std::optional<build::build_outcome> built; ///< build: the log, warnings, library
  /// correctness, then the GPU's stages and the insights: one report per kernel asked.
  std::vector<reports::kernel_report> kernels;

  void stop(ending why, std::string message) {
    end = why;
    error = std::move(message);
  }
};

// Runs `work` and records how long it took in the grading's stage table (the profile of where a
// grading's time goes: docs/timing.md, "Cost").
template <class F>
auto timed_stage(grading& g, const char* stage, const std::string& kernel, F&& work) {
  const auto started = std::chrono::steady_clock::now();
  auto r = work();
  g.timings.push_back({stage, kernel, seconds_since(started), {}});
  return r;
}

// submission_intake.cpp
/// The CUDA_VISIBLE_DEVICES value for this grading's runners; the pinned device's identity
/// replaces the backend's.
[[nodiscard]] std::string devices_for_runs(grading& g);
[[nodiscard]] result<fetch::fetched_submission> fetch_for(const grading& g);
/// The submission's files copied into the grading's own folder, within the spec's limits; its
/// notes say what was left out.
[[nodiscard]] result<fetch::copied_submission> take_in(const grading& g,
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
/// in its own runners. Each kernel's stages go into the stage table; fails (infrastructure) at the
/// first kernel that could not be run, with the stages up to it.
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
/// the stage table; fails (infrastructure) with the message the report is not gradable for.
[[nodiscard]] result<void> run_gpu_stages(grading& g, perf::gpu_evaluator& gpu,
                                          std::vector<checked_kernel>& checked,
                                          const std::filesystem::path& library,
                                          const std::filesystem::path& source,
                                          const std::filesystem::path& work_dir);

// insight_stage.cpp
/// Insights in emulation for every one of `kernels` that wants them: one profiled run each
/// (kernel_insight.h).
void profile_in_emulation(grading& g, std::vector<reports::kernel_report>& kernels,
                          const std::filesystem::path& library, const std::filesystem::path& work);
/// Insights on the GPU: Nsight Compute, under the GPU's exclusive lock, kernel by kernel; the
/// emulator's counts where this machine cannot read the counters (docs/insight.md).
void profile_on_gpu(grading& g, perf::gpu_evaluator& gpu,
                    const std::vector<reports::kernel_report*>& kernels,
                    const std::filesystem::path& library, const std::filesystem::path& source,
                    const std::filesystem::path& work);

// grade.cpp, assemble_report.cpp and best_of.cpp
/// Fetch, build, correctness, then the GPU's stages or emulation's insights, each stage's result
/// kept in `r` as it comes (so a stage that throws leaves what the earlier ones found).
void grade_submission(grading& g, stage_results& r);
/// The report of one walk, made once from what its stages returned, on top of `base` (the
/// assignment, the environment, the backend): the submission, the build, the kernels' verdicts
/// and the stage table; not gradable when the machine failed. A usage mistake gives no report.
[[nodiscard]] grade_outcome assemble_report(reports::report base, const grading& g,
                                            stage_results r);
/// grade_submission, then assemble_report: one walk of `g` from `base`. A stage that throws (a
/// bug, a folder that cannot be made, a hook that fails) ends the walk with a not-gradable report
/// of what was found until then, never the process.
[[nodiscard]] grade_outcome walk(grading& g, reports::report base);
/// The spec's best_of mode: once the deadline graded an older commit, the branch's newest is
/// graded too, and the higher score after its late penalty is kept (docs/git.md).
[[nodiscard]] grade_outcome best_of(grade_outcome on_time, const grading& first);

} // namespace cugrade::grader::detail
