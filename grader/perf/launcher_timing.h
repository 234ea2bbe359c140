#pragma once
/// \file
/// Timing one launcher of one library on every benchmark case in one runner process, then
/// checking its timed calls (timed_verification.h). One such run is one round of the A B B A
/// comparison (comparison.h). A runner may also time several launchers of one library one after
/// another (one CUDA start for every timed kernel of a grading); launcher_shares() then gives each
/// launcher its part, as a run of that launcher alone would have.

#include "grader/perf/output_check.h"
#include "grader/perf/timed_verification.h"
#include "grader/runners/runner_call.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::perf {

/// What to time and where.
struct timing_target {
  std::filesystem::path runner; ///< cugrade-runner-gpu
  runners::run_context context; ///< the GPU its grading is pinned to
  std::filesystem::path library;
  std::string launcher;
  /// Launchers timed after `launcher` by the same runner over the same cases, their cases
  /// numbered on (protocol::plan::more_launchers). Empty for a run of one launcher.
  std::vector<std::string> more_launchers;
  std::filesystem::path output_dir; ///< fresh for each run
  bool keep_outputs = false; ///< keep the saved outputs after checking them (they can be large)
  /// Every launcher the runner times, in order: `launcher`, then more_launchers.
  [[nodiscard]] std::vector<std::string> launchers() const;
};

/// One case of one run.
struct case_run {
  problems::test_case tc;
  std::optional<protocol::timing_record> record; ///< absent when the runner never reported it
  timed_check check;
};

struct launcher_run {
  /// Every launcher's cases in order (with more_launchers, launcher j's case i is j * n + i).
  std::vector<case_run> cases;
  runners::runner_outcome outcome;
  timing_target target;        ///< what was timed, and where its saved outputs lie
  bool checked = false;        ///< check_timed_launcher ran (the cases' checks are meaningful)
  double runner_seconds = 0;   ///< wall time of the runner process (the GPU's share)
  double check_seconds = 0;    ///< wall time of the checks of its timed calls (the CPU's share)
  /// Every case was timed (the runner reported it); says nothing of the checks.
  [[nodiscard]] bool finished() const;
  /// Every case was timed and passed its checks.
  [[nodiscard]] bool verified() const;
  /// The first problem, for the student (empty when verified).
  [[nodiscard]] std::string first_problem() const;
};

/// Times `target` on `cases` with `request` in one runner process, without checking the timed
/// calls: the GPU's share of a round, done while holding the GPU exclusively. Fails only when the
/// runner cannot be started (infrastructure); what the launcher does is in the result.
[[nodiscard]] result<launcher_run> run_timed_launcher(problems::kind problem,
                                                      const timing_target& target,
                                                      const std::vector<problems::test_case>& cases,
                                                      const protocol::timing_request& request);

/// run_timed_launcher's runner, started ahead of its turn (grader/runners/runner_call.h,
/// gated_runner): it makes its device context while the GPU is shared and waits, with nothing of
/// the submission loaded, until run_started_launcher lets it go under the exclusive hold.
struct started_launcher {
  timing_target target;
  std::vector<problems::test_case> cases;
  std::unique_ptr<runners::gated_runner> runner;
};

/// Starts the runner of run_timed_launcher(problem, target, cases, request) behind its gate.
/// Fails only when it cannot be started.
[[nodiscard]] result<started_launcher>
start_timed_launcher(problems::kind problem, const timing_target& target,
                     const std::vector<problems::test_case>& cases,
                     const protocol::timing_request& request);

/// Lets a started runner go and waits for it: what run_timed_launcher would have given, its
/// runner_seconds counted from the go.
[[nodiscard]] result<launcher_run> run_started_launcher(started_launcher& started);

/// The part of each launcher of a run that timed several (timing_target::more_launchers), in
/// order, each as a run of that launcher alone: its cases, the runner's timings of them (their
/// case numbers and saved output files as the runner numbered them), its target without more
/// launchers. Launchers before the first one that did not finish take their part. That first one
/// takes its part only when the runner ran out of time (it was the launcher running: a second
/// wait would cost its whole time limit again); after a fault, a crash or an unreadable log it
/// gets nullopt, as does every launcher after it: each must run again in a fresh runner, so that
/// no launcher's result depends on a fault another left behind.
[[nodiscard]] std::vector<std::optional<launcher_run>> launcher_shares(const launcher_run& run);

/// Checks every case of `run` (timed_verification.h) and removes its saved outputs unless the
/// target keeps them: CPU work that needs no GPU, so the exclusive lock can be let go first.
void check_timed_launcher(problems::kind problem, const protocol::timing_request& request,
                          const check_policy& policy, launcher_run& run);

/// run_timed_launcher, then check_timed_launcher.
[[nodiscard]] result<launcher_run> time_launcher(problems::kind problem,
                                                 const timing_target& target,
                                                 const std::vector<problems::test_case>& cases,
                                                 const protocol::timing_request& request,
                                                 const check_policy& policy);

} // namespace cugrade::perf
