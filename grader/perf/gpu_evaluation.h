#pragma once
/// \file
/// The GPU part of grading one submission, after correctness (docs/timing.md): compute-sanitizer
/// checks when the spec enables them, then, for kernels that passed, verified timing against the
/// reference (A B B A rounds), speedups with intervals, roofline figures and performance points.
/// One evaluator per grading: it builds the reference and reads the device's roofline once, when
/// the first kernel needs them.

#include "grader/layout/layout.h"
#include "grader/perf/comparison.h"
#include "grader/perf/output_check.h"
#include "grader/perf/reference_comparison.h"
#include "grader/perf/sanitizer_check.h"
#include "grader/process/device_lock.h"
#include "grader/runners/run_context.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/result.h"
#include "harness/protocol/protocol.h"
#include "harness/roofline/roofline.h"
#include "reports/report.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace cugrade::perf {

struct gpu_evaluation_options {
  bool sanitizer = true;             ///< run the spec's sanitizer checks (if it enables them)
  bool timing = true;                ///< time kernels that passed
  /// Also time kernels without performance points (for the leaderboard). Off by default: a
  /// teaching kernel with global atomics can take 15 s per round (`cugrade bench` covers them).
  bool time_unscored_kernels = false;
  /// A B B A rounds beside the student's (`--precise`, for disputes) instead of the cached
  /// reference time confirmed by a control measurement.
  bool precise = false;
  int rounds = 2;                    ///< with precise: rounds of each side, A B B A
  protocol::timing_request request;  ///< default_timing_request() unless changed
  protocol::timing_request control;  ///< the control measurement of the cached reference
  double drift_limit = 0.01;         ///< re-time the reference when the control moved more
  noise_rule noise;
  gpu_evaluation_options();
};

class gpu_evaluator {
public:
  /// `nvcc` builds the reference and locates compute-sanitizer; `device` is the GPU as the probe
  /// saw it (its name keys the roofline cache, its UUID the lock and the reference timings, its
  /// architecture the reference build); `context` pins every runner it starts to that GPU;
  /// `work_dir` receives plans, events and outputs.
  gpu_evaluator(const spec::assignment_spec& spec, const grader::layout& layout,
                std::filesystem::path nvcc, protocol::device_identity device,
                runners::run_context context, std::filesystem::path work_dir,
                std::function<void(std::string_view)> progress = {},
                gpu_evaluation_options options = {});

  /// Adds the GPU checks to the report of one kernel built into `student_library` whose
  /// correctness verdict is already in `k`: sanitizer findings (status error), performance
  /// entries, speedup_geomean and performance points (added to k.score). Kernels that did not
  /// pass are not timed. Fails only for infrastructure (the reference does not build or fails its
  /// own checks, a program cannot start): the caller marks the report not gradable.
  [[nodiscard]] result<void> evaluate(reports::kernel_report& k,
                                      const std::filesystem::path& student_library);

  /// The two halves of evaluate(), for a caller that runs the sanitizer checks of several
  /// kernels at once (they share the GPU like correctness runs) and times them together:
  /// sanitize() may be called from several threads at once and does nothing where checks() is
  /// false. time_all() times each of `kernels` that times() accepts, with the GPU held
  /// exclusively once for every kernel's runner processes, then each kernel's checks with the
  /// GPU let go: in a batch a grading waits once, not once per kernel, for the other gradings'
  /// shared runs to drain. One runner times every kernel's first student round, one every
  /// kernel's control (two CUDA starts, not two per kernel); a kernel whose round in it could
  /// not be used (launcher_shares) runs in a runner of its own. Gives the stages: with one timed
  /// kernel, its stage; with several, the runs in the hold (no kernel), then each kernel's
  /// checks.
  [[nodiscard]] result<void> sanitize(reports::kernel_report& k,
                                      const std::filesystem::path& student_library);
  /// The sanitizer checks of several kernels at once: each tool runs once over every kernel that
  /// checks() accepts (run_sanitizer_pass: one CUDA start per tool, not per tool and kernel),
  /// then kernel by kernel only the tools whose pass found something or did not finish, so every
  /// finding comes from a run of its kernel alone and the verdicts are those of sanitize(). Gives
  /// the stages: the pass (no kernel), then each kernel checked alone.
  [[nodiscard]] result<std::vector<reports::stage_timing>>
  sanitize_all(const std::vector<reports::kernel_report*>& kernels,
               const std::filesystem::path& student_library);
  /// `runs_ended`, when given, is called once this grading has no runner left on the GPU: after
  /// the exclusive hold and before the checks, or at once when nothing is timed. A batch gives
  /// the GPU's slot to the next grading there, while this one checks on the CPU. Only a full
  /// measurement of the reference (none cached yet, or a control that moved) or of the roofline
  /// (none cached yet) uses the GPU after it, under the exclusive lock as every timing does.
  [[nodiscard]] result<std::vector<reports::stage_timing>>
  time_all(const std::vector<reports::kernel_report*>& kernels,
           const std::filesystem::path& student_library,
           const std::function<void()>& runs_ended = {});
  /// Whether sanitize() and time_all() would do anything for `k` (its status, the spec, options).
  [[nodiscard]] bool checks(const reports::kernel_report& k) const;
  [[nodiscard]] bool times(const reports::kernel_report& k) const;

  /// The reference library (built on first use).
  [[nodiscard]] result<std::filesystem::path> reference();
  /// Times `library`'s `launcher` against the reference (cached and controlled, or A B B A with
  /// `precise`) and gives one performance entry per benchmark case; `runs` receives the
  /// measured side's rounds. Used by evaluate() and by `cugrade bench --self-speedup`.
  [[nodiscard]] result<std::vector<reports::performance_entry>>
  compare(const std::string& launcher, const std::filesystem::path& library,
          std::vector<launcher_run>& runs);
  /// Holds the GPU's lock exclusively until the last copy of the result goes (timing, the
  /// roofline, `cugrade bench`); nested holds share the outermost one.
  [[nodiscard]] result<std::shared_ptr<process::device_lock>> hold_exclusive();
  /// How long each stage of the evaluations since the last call took (sanitizer, timing), in
  /// order; the list starts empty again.
  [[nodiscard]] std::vector<reports::stage_timing> take_stages() { return std::exchange(m_stages, {}); }
  /// Where the last timing spent its time: waiting for the GPU's lock, the student's runs, the
  /// control, the checks of the timed calls, a full measurement of the reference.
  [[nodiscard]] std::vector<reports::stage_part> take_parts() { return std::exchange(m_parts, {}); }
  /// The device's roofline with figures for every benchmark case, or nullptr when it cannot be
  /// measured (then entries lack roof and library figures; the note says why).
  [[nodiscard]] const roofline::device_roofline* roof();

private:
  void say(const std::string& message) const;
  [[nodiscard]] result<process::device_lock> hold_shared() const;
  /// What every compute-sanitizer run needs: the tool found, and the GPU held shared.
  struct sanitizer_turn {
    sanitizer_setup tools;
    process::device_lock lock;
  };
  [[nodiscard]] result<sanitizer_turn> take_sanitizer_turn() const;
  result<void> run_sanitizer_checks(reports::kernel_report& k, const std::filesystem::path& library,
                                    const std::vector<std::string>& tools);
  /// One run of each tool over every one of `kernels`; gives the tools that found nothing.
  result<std::vector<std::string>> sanitizer_pass(const std::vector<reports::kernel_report*>& kernels,
                                                  const std::filesystem::path& library);
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
  /// cached (its target's launchers). Either may be missing: those rounds start in the hold.
  struct started_rounds {
    std::optional<started_launcher> students;
    std::optional<started_launcher> controls;
  };
  result<started_rounds> start_ahead(const std::vector<timed_runs>& ts,
                                     const std::filesystem::path& library,
                                     const std::filesystem::path& reference);
  /// The GPU half of timing `launchers`: with --precise each one's A B B A comparison (verified
  /// inside the hold), otherwise every one's student round(s) and control under one exclusive
  /// hold, their runners started ahead when `start_early`; checked later by finish_timing().
  result<std::vector<timed_runs>> run_timing(const std::vector<std::string>& launchers,
                                             const std::filesystem::path& library,
                                             bool start_early);
  result<std::vector<std::optional<launcher_run>>> let_go(std::optional<started_launcher>& started,
                                                          std::string_view doing);
  result<void> run_student_rounds(std::vector<timed_runs>& ts, const std::filesystem::path& library,
                                  started_rounds& ahead);
  result<void> run_controls(std::vector<timed_runs>& ts, const std::filesystem::path& reference,
                            started_rounds& ahead);
  result<std::vector<reports::performance_entry>> finish_timing(timed_runs& t);
  result<void> score_timing(reports::kernel_report& k,
                            std::vector<reports::performance_entry> entries,
                            const std::vector<launcher_run>& runs);
  std::future<void> prepare_checks_ahead();
  result<std::vector<reference_side>> compare_precise(const comparison_setup& s,
                                                      const std::string& launcher,
                                                      const std::filesystem::path& library,
                                                      const std::filesystem::path& reference,
                                                      std::vector<launcher_run>& runs);
  result<std::vector<reference_side>> check_with_cache(timed_runs& t,
                                                       const std::filesystem::path& reference);
  void add_part(const std::string& name, std::chrono::steady_clock::time_point since);
  [[nodiscard]] comparison_setup setup() const;
  [[nodiscard]] result<cached_reference_setup> cached_setup();
  [[nodiscard]] std::string gpu_key() const;

  const spec::assignment_spec& m_spec;
  grader::layout m_layout;
  std::filesystem::path m_nvcc;
  protocol::device_identity m_device;
  runners::run_context m_context;
  std::filesystem::path m_work_dir;
  std::function<void(std::string_view)> m_progress;
  gpu_evaluation_options m_options;
  check_policy m_policy;
  std::optional<std::filesystem::path> m_reference;
  std::optional<std::string> m_reference_sha256; ///< of m_reference, read once (the cache's key)
  std::optional<roofline::device_roofline> m_roof;
  bool m_roof_tried = false;
  std::vector<reports::stage_timing> m_stages;
  std::vector<reports::stage_part> m_parts;
  std::weak_ptr<process::device_lock> m_exclusive;
};

/// compute-sanitizer next to `nvcc`, or on PATH.
[[nodiscard]] std::optional<std::filesystem::path>
find_compute_sanitizer(const std::filesystem::path& nvcc);

/// The reason a kernel's timed calls failed, as the hint the report gives.
[[nodiscard]] reports::hint timing_failure_hint(const launcher_run& run);

} // namespace cugrade::perf
