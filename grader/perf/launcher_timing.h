#pragma once
/// \file
/// Timing one launcher of one library on every benchmark case in one runner process, then
/// checking its timed calls (timed_verification.h). One such run is one round of the A B B A
/// comparison (comparison.h).

#include "grader/perf/output_check.h"
#include "grader/perf/runner_call.h"
#include "grader/perf/timed_verification.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::perf {

/// What to time and where.
struct timing_target {
  std::filesystem::path runner; ///< cugrade-runner-gpu
  std::filesystem::path library;
  std::string launcher;
  std::filesystem::path output_dir; ///< fresh for each run
  bool keep_outputs = false; ///< keep the saved outputs after checking them (they can be large)
};

/// One case of one run.
struct case_run {
  problems::test_case tc;
  std::optional<protocol::timing_record> record; ///< absent when the runner never reported it
  timed_check check;
};

struct launcher_run {
  std::vector<case_run> cases;
  runner_outcome outcome;
  /// Every case was timed and passed its checks.
  [[nodiscard]] bool verified() const;
  /// The first problem, for the student (empty when verified).
  [[nodiscard]] std::string first_problem() const;
};

/// Times `target` on `cases` with `request` and checks every case. Fails only when the runner
/// cannot be started (infrastructure); what the launcher does is in the result.
[[nodiscard]] result<launcher_run> time_launcher(problems::kind problem,
                                                 const timing_target& target,
                                                 const std::vector<problems::test_case>& cases,
                                                 const protocol::timing_request& request,
                                                 const check_policy& policy);

} // namespace cugrade::perf
