#pragma once
/// \file
/// The GPU part of grading one submission, after correctness (docs/timing.md): compute-sanitizer
/// checks when the spec enables them, then, for kernels that passed, verified timing against the
/// reference (A B B A rounds), speedups with intervals, roofline figures and performance points.
/// One evaluator per grading: it builds the reference and reads the device's roofline once, when
/// the first kernel needs them. It is the one door to two stages that share the grading's GPU
/// lock: the sanitizer stage (sanitizer_stage.h) and the timing stage (timing_stage.h).

#include "grader/layout/layout.h"
#include "grader/perf/gpu_grading.h"
#include "grader/perf/sanitizer_stage.h"
#include "grader/perf/timing_stage.h"
#include "grader/process/device_lock.h"
#include "grader/runners/run_context.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/result.h"
#include "harness/protocol/protocol.h"
#include "harness/roofline/roofline.h"
#include "reports/report.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cugrade::perf {

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
  gpu_evaluator(const gpu_evaluator&) = delete; // its stages hold references into it
  gpu_evaluator& operator=(const gpu_evaluator&) = delete;

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
  /// The two stages behind one interface, in the order a grading runs them (grader/core's
  /// gpu_stages.cpp): sanitize_all() and time_all().
  [[nodiscard]] gpu_stage& sanitizer() { return m_sanitizer; }
  [[nodiscard]] gpu_stage& timing() { return m_timing; }
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
  [[nodiscard]] std::vector<reports::stage_timing> take_stages() {
    return std::exchange(m_stages, {});
  }
  /// Where the last timing spent its time: waiting for the GPU's lock, the student's runs, the
  /// control, the checks of the timed calls, a full measurement of the reference.
  [[nodiscard]] std::vector<reports::stage_part> take_parts() { return m_parts.take(); }
  /// The device's roofline with figures for every benchmark case, or nullptr when it cannot be
  /// measured (then entries lack roof and library figures; the note says why).
  [[nodiscard]] const roofline::device_roofline* roof();

private:
  gpu_grading m_grading;
  stage_parts m_parts;
  gpu_lock m_lock;
  sanitizer_stage m_sanitizer;
  timing_stage m_timing;
  std::vector<reports::stage_timing> m_stages;
};

} // namespace cugrade::perf
