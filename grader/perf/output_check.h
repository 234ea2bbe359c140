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
#include <string>
#include <vector>

namespace cugrade::perf {

/// How benchmark outputs are compared with the reference.
struct check_policy {
  std::size_t matmul_rows = 64;   ///< rows of P checked per output (all rows when P has fewer)
  double reduction_bound = 1e-3;  ///< |got - exact| <= reduction_bound * sum|x|
  double digest_tolerance = 1e-3; ///< a call's fingerprint against its set's verified output
  std::uint64_t row_seed = 0;     ///< which matmul rows; the grader draws it per grading
};

struct output_verdict {
  bool passed = false;
  bool stale = false; ///< some element still holds the poison word: never written
  std::string detail; ///< what was wrong, for the student; empty when passed
};

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
