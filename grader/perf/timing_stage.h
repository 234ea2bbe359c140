#pragma once
/// \file
/// The timing stage of a grading on the GPU (docs/timing.md): the kernels that passed timed
/// against the reference (its time cached per GPU and confirmed by a control, or A B B A rounds
/// with `--precise`), their runner processes under one exclusive hold of the GPU, then their
/// checks, speedups with intervals, roofline figures and performance points with the GPU let go.
/// Its parts: the GPU half (timing_runs.cpp), the reference and the roofline it is measured
/// against (timing_references.cpp) and the CPU half (timing_stage.cpp).

#include "grader/perf/comparison.h"
#include "grader/perf/gpu_grading.h"
#include "grader/perf/gpu_stage.h"
#include "grader/perf/output_check.h"
#include "grader/perf/reference_comparison.h"
#include "harness/core/result.h"
#include "harness/roofline/roofline.h"
#include "reports/report.h"

#include <filesystem>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::perf {

struct gpu_evaluation_options {
  bool sanitizer = true; ///< run the spec's sanitizer checks (if it enables them)
  bool timing = true;    ///< time kernels that passed
  /// Also time kernels without performance points (for the leaderboard). Off by default: a
  /// teaching kernel with global atomics can take 15 s per round (`cugrade bench` covers them).
  bool time_unscored_kernels = false;
  /// A B B A rounds beside the student's (`--precise`, for disputes) instead of the cached
  /// reference time confirmed by a control measurement.
  bool precise = false;
  int rounds = 2;                   ///< with precise: rounds of each side, A B B A
  protocol::timing_request request; ///< default_timing_request() unless changed
  protocol::timing_request control; ///< the control measurement of the cached reference
  double drift_limit = 0.01;        ///< re-time the reference when the control moved more
  noise_rule noise;
  gpu_evaluation_options();
};

class timing_stage final : public gpu_stage {
public:
  timing_stage(const gpu_grading& grading, gpu_lock& lock, stage_parts& parts,
               const gpu_evaluation_options& options);

  /// Whether time_all() would time `k` (its status, the spec, the options).
  [[nodiscard]] bool times(const reports::kernel_report& k) const;
  /// Times each of `kernels` that times() accepts, every kernel's runners under one exclusive
  /// hold, then each kernel's checks with the GPU let go; `runs_ended` is called in between (or
  /// at once when nothing is timed). Gives the stages: with one timed kernel, its stage; with
  /// several, the runs in the hold (no kernel), then each kernel's checks.
  [[nodiscard]] result<std::vector<reports::stage_timing>>
  time_all(const std::vector<reports::kernel_report*>& kernels,
           const std::filesystem::path& student_library, const std::function<void()>& runs_ended);

  // As a gpu_stage: time_all().
  [[nodiscard]] std::string_view name() const override { return "timing"; }
  [[nodiscard]] result<std::vector<reports::stage_timing>> run(const gpu_stage_input& in) override {
    return time_all(in.kernels, in.student_library, in.runs_ended);
  }
  /// Times `library`'s `launcher` against the reference and gives one performance entry per
  /// benchmark case; `runs` receives the measured side's rounds (`cugrade bench`).
  [[nodiscard]] result<std::vector<reports::performance_entry>>
  compare(const std::string& launcher, const std::filesystem::path& library,
          std::vector<launcher_run>& runs);
  /// The reference library (built on first use).
  [[nodiscard]] result<std::filesystem::path> reference();
  /// The device's roofline with figures for every benchmark case, or nullptr when it cannot be
  /// measured.
  [[nodiscard]] const roofline::device_roofline* roof();

private:
  /// One kernel's timing between its GPU half (run_timing: runner processes under the exclusive
  /// hold) and its CPU half (finish_timing: the checks, the control's verdict, the entries).
  struct timed_runs {
    std::string launcher;
    comparison_setup setup;
    std::vector<launcher_run> runs; ///< the student's round(s)
    std::optional<cached_reference_setup> cache;
    std::vector<std::optional<pooled_samples>> cached;
    std::optional<launcher_run> control;
    std::optional<std::vector<reference_side>> sides; ///< known already with --precise
  };
  /// Every timed kernel's runners, started before the exclusive hold: one times the first
  /// student round of every kernel, one the control of every kernel whose reference time is
  /// cached. Either may be missing: those rounds start in the hold.
  struct started_rounds {
    std::optional<started_launcher> students;
    std::optional<started_launcher> controls;
  };

  // The GPU half (timing_runs.cpp).
  result<std::vector<timed_runs>> run_timing(const std::vector<std::string>& launchers,
                                             const std::filesystem::path& library,
                                             bool start_early);
  result<std::vector<timed_runs>> run_precise(std::vector<timed_runs> ts,
                                              const std::filesystem::path& library,
                                              const std::filesystem::path& reference);
  result<started_rounds> start_ahead(const std::vector<timed_runs>& ts,
                                     const std::filesystem::path& library,
                                     const std::filesystem::path& reference);
  result<std::vector<std::optional<launcher_run>>> let_go(std::optional<started_launcher>& started,
                                                          std::string_view doing);
  result<void> run_student_rounds(std::vector<timed_runs>& ts, const std::filesystem::path& library,
                                  started_rounds& ahead);
  result<void> run_controls(std::vector<timed_runs>& ts, const std::filesystem::path& reference,
                            started_rounds& ahead);
  result<std::vector<reference_side>> compare_precise(const comparison_setup& s,
                                                      const std::string& launcher,
                                                      const std::filesystem::path& library,
                                                      const std::filesystem::path& reference,
                                                      std::vector<launcher_run>& runs);
  // What timing is measured against (timing_references.cpp).
  [[nodiscard]] comparison_setup setup() const;
  [[nodiscard]] result<cached_reference_setup> cached_setup();
  // The CPU half (timing_stage.cpp).
  result<std::vector<reports::performance_entry>> finish_timing(timed_runs& t);
  result<std::vector<reference_side>> check_with_cache(timed_runs& t,
                                                       const std::filesystem::path& reference);
  result<void> score_timing(reports::kernel_report& k,
                            std::vector<reports::performance_entry> entries,
                            const std::vector<launcher_run>& runs);
  std::future<void> prepare_checks_ahead();

  const gpu_grading& m_grading;
  gpu_lock& m_lock;
  stage_parts& m_parts;
  gpu_evaluation_options m_options;
  check_policy m_policy;
  std::optional<std::filesystem::path> m_reference;
  std::optional<std::string> m_reference_sha256; ///< of m_reference, read once (the cache's key)
  std::optional<roofline::device_roofline> m_roof;
  bool m_roof_tried = false;
};

/// The first run that failed its checks (runs end at the first failure), or nullptr.
[[nodiscard]] const launcher_run* first_failed_run(const std::vector<launcher_run>& runs);

/// The reason a kernel's timed calls failed, as the hint the report gives.
[[nodiscard]] reports::hint timing_failure_hint(const launcher_run& run);

} // namespace cugrade::perf
