#pragma once
/// \file
/// compute-sanitizer checks of one kernel on the GPU (docs/timing.md, "Sanitizer checks"): the
/// kernel's runner runs the spec's small sanitizer shapes under memcheck, racecheck and synccheck
/// (`--xml --save`), and what they find becomes an `error` with its `error_kind` and the
/// student's source line. Only when the spec enables it; never in emulation.

#include "grader/perf/sanitizer_findings.h"
#include "grader/runners/runner_call.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/result.h"
#include "reports/report.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::perf {

struct sanitizer_setup {
  std::filesystem::path sanitizer; ///< compute-sanitizer
  std::filesystem::path runner;    ///< cugrade-runner-gpu
  runners::run_context context;    ///< the GPU its grading is pinned to
  std::filesystem::path work_dir;
  double time_limit_seconds = 300; ///< per tool
};

struct sanitizer_outcome {
  std::vector<sanitizer_finding> findings;
  std::vector<std::string> notes; ///< reports a tool wrote that could not be read, and why
  /// Why a tool could not finish because of the submission (its code killed the tool while it
  /// ran: `kill(getppid(), SIGKILL)` reaches compute-sanitizer, the runner's parent); empty when
  /// every tool finished.
  std::string stopped_by_submission;
};

/// Runs each of `tools` on `launcher` of `library`. Fails when a program cannot
/// be started or a tool wrote no report for a reason of the machine (it did not check: the
/// report is then not gradable, never silently clean). A tool killed by a signal after the runner
/// started, and not by the grader's time limit, was stopped by the submission's code (nothing
/// else in the sandbox can signal it): `stopped_by_submission` says so.
[[nodiscard]] result<sanitizer_outcome> run_sanitizer(const spec::assignment_spec& spec,
                                                      const std::vector<std::string>& tools,
                                                      const std::string& launcher,
                                                      const std::filesystem::path& library,
                                                      const sanitizer_setup& setup);

/// Runs each tool of the spec's policy once over every one of `launchers` (one runner, one CUDA
/// start per tool, where checking kernel by kernel starts one per tool and kernel: process starts
/// are what limits a batch, docs/batch.md) and gives the tools whose pass was clean: it ran
/// every case of every launcher to its end and found nothing. The others are for the caller to
/// run kernel by kernel (run_sanitizer), so a finding is always named by a run of its kernel
/// alone and a pass changes no verdict. Fails only when a program cannot be started.
[[nodiscard]] result<std::vector<std::string>>
run_sanitizer_pass(const spec::assignment_spec& spec, const std::vector<std::string>& launchers,
                   const std::filesystem::path& library, const sanitizer_setup& setup);

/// Whether a pass over `launchers` x `cases` cases (`runs` each) checked everything and found
/// nothing: the run ended cleanly, its log is whole (no tampering, no missing launcher, no
/// fault, every run of every case completed) and the tool's report reads with no finding.
[[nodiscard]] bool pass_found_nothing(const runners::runner_outcome& run, std::size_t expected_runs,
                                      const result<std::vector<sanitizer_finding>>& findings);

/// Turns findings into the kernel's verdict: status `error`, the first finding's error_kind, and
/// one diagnosis hint per finding (first). A barrier reached by only some threads (synccheck)
/// counts as the first finding, whatever the tools' order, as the emulator's barrier fault is the
/// first hint there. Correctness points already earned stay. A kernel the GPU stopped with an
/// illegal address takes the tool's memory fault as its error_kind, and the tool's hint replaces
/// the line-less out_of_bounds hint of the run.
void record_findings(reports::kernel_report& k, std::vector<sanitizer_finding> findings);

} // namespace cugrade::perf
