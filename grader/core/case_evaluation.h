#pragma once
/// \file
/// Turning what a runner left behind (its event log and raw outputs) into a verdict per case,
/// by comparing with the CPU reference. Runs in the grader, which runs no student code.

#include "grader/core/case_plan.h"
#include "grader/core/output_patterns.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"
#include "reports/report.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::grader {

/// How the runner process ended.
struct runner_exit {
  bool timed_out = false;
  int term_signal = 0;
  int exit_code = 0;
  double time_limit_seconds = 0;
  std::string stderr_tail;
  std::string launcher; ///< the launcher the runner was calling, named in a timeout's message
};

/// The verdict on one case, with the evidence diagnosis needs.
struct case_outcome {
  reports::test_status status = reports::test_status::not_run;
  std::optional<reports::fault_kind> error_kind; ///< for `error` and `timeout`
  std::string message;
  std::string location; ///< the student's source line of the fault, e.g. "histogram.cu:14"
  std::optional<problems::comparison> comparison; ///< of the first run, when it completed
  bool schedule_dependent = false;                ///< runs (thread orders) disagreed
  bool canary_overwritten = false; ///< a store past the end of the output hit the guard words
  bool input_modified = false;     ///< the launcher changed an input buffer
  output_evidence evidence;        ///< of the first run's output, when the case failed
  std::string output;              ///< the first run's debug output (protocol::run_record)
  std::size_t output_bytes = 0;
};

/// The last "<file>.cu:<line>" in a fault message (the faulting thread's own site comes last in
/// the emulator's and the runner's messages), or "".
[[nodiscard]] std::string source_location_in(const std::string& message);
/// Every distinct "<file>.cu:<line>" in a message, in order.
[[nodiscard]] std::vector<std::string> source_locations_in(const std::string& message);

/// One outcome per case, in the order of `cases`.
[[nodiscard]] std::vector<case_outcome> evaluate_cases(const problems::problem& problem,
                                                       const std::vector<graded_case>& cases,
                                                       const protocol::runner_log& log,
                                                       const std::filesystem::path& output_dir,
                                                       const runner_exit& exit);

/// The index of the case that stopped the runner (an error or timeout followed only by cases
/// that did not run), or outcomes.size() when the runner got through every case.
[[nodiscard]] std::size_t stopping_case(const std::vector<case_outcome>& outcomes);

} // namespace cugrade::grader
