#pragma once
/// \file
/// Checking one output of a timed call against the CPU reference for its inputs
/// (docs/timing.md, "Verified timing"). Benchmark outputs are large, so two problems are checked
/// in a cheaper way than the correctness tests: matmul on a random sample of rows (the rows are
/// drawn after the run, so a launcher cannot know them), and the reduction against a pragmatic
/// bound, because at n = 2^28 the rigorous fp32 bound allows almost anything.

#include "harness/problems/problem.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace cugrade::perf {

/// What checking an output of one input set needs, computed once from the inputs: the expected
/// values (matmul: of the sampled rows only) and what the comparison reads besides them (matmul:
/// the sampled rows of M and all of N; histogram: the input; reduction: the sum of |x|).
struct prepared_check {
  problems::test_case tc; ///< matmul: the sub-problem of the sampled rows
  std::vector<std::size_t> rows;
  std::vector<problems::buffer> inputs;
  std::vector<double> expected;
  double abs_sum = 0;
};

/// Prepared checks of one grading, by input set: every round of every kernel (student, control,
/// reference) checks its outputs against the same inputs, which are generated and reduced once,
/// and may be prepared ahead on another thread while the runner times (get() waits for a check
/// another thread is still preparing).
class prepared_checks {
public:
  /// The prepared check of `tc` (its seed names the input set), made by `make` on first use.
  const prepared_check& get(const problems::test_case& tc,
                            const std::function<prepared_check()>& make);

private:
  std::mutex m_mutex;
  std::map<std::pair<std::string, std::uint64_t>, std::shared_future<prepared_check>> m_checks;
};

/// How benchmark outputs are compared with the reference.
struct check_policy {
  std::size_t matmul_rows = 64;   ///< rows of P checked per output (all rows when P has fewer)
  double reduction_bound = 1e-3;  ///< |got - exact| <= reduction_bound * sum|x|
  double digest_tolerance = 1e-3; ///< a call's fingerprint against its set's verified output
  std::uint64_t row_seed = 0;     ///< which matmul rows; the grader draws it per grading
  /// Shared by the rounds of one grading (row_seed is the same for all of them); null: prepare
  /// every check afresh.
  std::shared_ptr<prepared_checks> prepared;
};

struct output_verdict {
  bool passed = false;
  bool stale = false; ///< some element still holds the poison word: never written
  std::string detail; ///< what was wrong, for the student; empty when passed
};

/// Prepares the check of outputs computed from `inputs`.
[[nodiscard]] prepared_check prepare_check(const problems::problem& problem,
                                           const problems::test_case& tc,
                                           const std::vector<problems::buffer>& inputs,
                                           const check_policy& policy);

/// Checks `output` against a prepared check.
[[nodiscard]] output_verdict check_prepared(const problems::problem& problem,
                                            const prepared_check& check,
                                            const problems::buffer& output,
                                            const check_policy& policy);

/// Checks `output` (the raw output of a call on `inputs`) against the reference.
[[nodiscard]] output_verdict check_output(const problems::problem& problem,
                                          const problems::test_case& tc,
                                          const std::vector<problems::buffer>& inputs,
                                          const problems::buffer& output,
                                          const check_policy& policy);

/// `count` distinct row indices below `rows`, sorted; every row when count >= rows. Always holds
/// the first and the last row, where boundary mistakes show.
[[nodiscard]] std::vector<std::size_t> sample_rows(std::size_t rows, std::size_t count,
                                                   std::uint64_t seed);

} // namespace cugrade::perf
