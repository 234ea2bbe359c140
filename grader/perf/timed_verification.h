#pragma once
/// \file
/// The grader's check of one case's timed calls (docs/timing.md, "Verified timing"): no call
/// faulted, every call wrote its whole output inside its bounds, no input changed, the saved
/// first and last output of every input set and the fresh-contents call match the reference, and
/// every call's fingerprint matches the verified output of its input set. A launcher that skips
/// work, writes garbage on some calls, or caches results across calls fails here.

#include "grader/perf/output_check.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"

#include <filesystem>
#include <string>

namespace cugrade::perf {

/// What was wrong with a case's timed calls, if anything.
enum class timed_verdict {
  ok,
  fault,          ///< a timed call failed (launch failure, illegal address...)
  stale,          ///< a call returned leaving output elements unwritten
  out_of_bounds,  ///< a call stored past the end of the output
  wrong,          ///< an output differs from the reference
  cached,         ///< the fresh-contents call returned an earlier call's answer
  input_modified, ///< an input changed under the calls
  incomplete      ///< the runner did not leave the evidence (infrastructure)
};

struct timed_check {
  timed_verdict verdict = timed_verdict::ok;
  std::string message; ///< for the student
  int outputs_checked = 0;
  [[nodiscard]] bool ok() const { return verdict == timed_verdict::ok; }
};

/// Checks the timed calls of `benchmark` (its seed is the case's own) recorded in `record`, whose
/// outputs lie in `output_dir`.
[[nodiscard]] timed_check verify_timed_case(const problems::problem& problem,
                                            const problems::test_case& benchmark, int input_sets,
                                            const protocol::timing_record& record,
                                            const std::filesystem::path& output_dir,
                                            const check_policy& policy);

/// The checks of a round that saved no outputs (a control, `save_outputs` false): faults, input
/// changes, guard words, unwritten elements and NaNs of every call, from its fingerprints.
[[nodiscard]] timed_check verify_timed_calls(const problems::problem& problem,
                                             const problems::test_case& benchmark, int input_sets,
                                             const protocol::timing_record& record);

/// Prepares the checks of every input set of `benchmark` (and of its fresh call) in
/// policy.prepared, so that verify_timed_case finds them ready; nothing without a shared store.
void prepare_checks(const problems::problem& problem, const problems::test_case& benchmark,
                    int input_sets, const check_policy& policy);

} // namespace cugrade::perf
