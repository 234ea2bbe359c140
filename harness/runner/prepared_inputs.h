#pragma once
/// \file
/// Benchmark inputs generated before a timing runner's gate opens. Generating a case's input
/// sets is CPU work (about 0.13 s for the five sets of a 2048^3 matmul case) that used to run
/// inside the exclusive hold of the GPU, while the GPU stood idle and every other grading waited.
/// A runner started ahead (docs/timing.md, section 9) makes them while it makes its CUDA context
/// and waits for its turn, before anything of the submission is loaded; `time_case` then only
/// uploads them. What does not fit the budget is generated in the hold as before.

#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace cugrade::runner {

/// Host memory the prepared inputs of one runner may take: a 2048^3 and a 4096x1024x2048 matmul
/// case (the default benchmark) take 288 MB with their fresh-contents sets; a 2^26-element scan
/// gets its first sets prepared, the rest generated in the hold.
inline constexpr std::size_t prepared_inputs_budget = std::size_t{512} << 20;

class prepared_inputs {
public:
  /// Generates, case by case and set by set (each case's `input_sets` sets, then its
  /// fresh-contents set when the plan saves outputs for the grader's check), the inputs of every distinct case of a timing plan while their total
  /// stays within `budget_bytes`. A plan that does not time prepares nothing.
  static prepared_inputs prepare(const problems::problem& problem, const protocol::plan& plan,
                                 std::size_t budget_bytes = prepared_inputs_budget);

  /// The prepared inputs of input set `set` of benchmark case `tc`, or nullptr when that set was
  /// not prepared. A case the plan repeats for further launchers (same name, shape and seed)
  /// finds the same inputs.
  [[nodiscard]] const std::vector<problems::buffer>* find(const problems::test_case& tc,
                                                          int set) const;
  /// Keeps `inputs` as input set `set` of `tc` (what prepare does for each set it makes).
  void add(const problems::test_case& tc, int set, std::vector<problems::buffer> inputs);
  [[nodiscard]] std::size_t bytes() const { return m_bytes; }
  [[nodiscard]] std::size_t sets() const { return m_sets.size(); }

private:
  using key = std::tuple<std::string, std::string, std::uint64_t, long, long, long, long, int>;
  static key key_of(const problems::test_case& tc, int set);
  std::map<key, std::vector<problems::buffer>> m_sets;
  std::size_t m_bytes = 0;
};

} // namespace cugrade::runner
