#pragma once
/// \file
/// What the runner's timing protocol and the grader's check of it must agree on (docs/timing.md):
/// the seeds of the rotated input sets, the fresh-contents call, the names of the saved outputs
/// and the digest of every timed output.

#include "harness/problems/problem.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::protocol {

/// Seed of input set `set` of a benchmark case (set 0 is the case's own seed). Set
/// `input_sets` is the fresh-contents set of the last call.
[[nodiscard]] std::uint64_t input_set_seed(std::uint64_t case_seed, int set);
/// `benchmark` as input set `set`: the same shape and distribution, input_set_seed's seed.
[[nodiscard]] problems::test_case input_set_case(const problems::test_case& benchmark, int set);

/// The inputs of input set `set` of `benchmark` (whose seed is the case's own). For the fresh
/// set (`set == input_sets`) every element of the first float input is also negated, so the
/// correct result differs from every earlier call's, even for a sum whose value barely depends
/// on the seed: a launcher that returns a result cached by pointer fails there.
[[nodiscard]] std::vector<problems::buffer> input_set_inputs(const problems::problem& problem,
                                                             const problems::test_case& benchmark,
                                                             int set, int input_sets);
/// The same inputs as recipes a device can run (problems::float_recipe), the fresh set's first
/// input negated; none when the problem's inputs are not made that way.
[[nodiscard]] std::optional<std::vector<problems::float_recipe>>
input_set_recipes(const problems::problem& problem, const problems::test_case& benchmark, int set,
                  int input_sets);

/// Which timed call a saved output comes from.
enum class output_role { first, last, fresh };
[[nodiscard]] std::string_view to_string(output_role r);
[[nodiscard]] output_role output_role_from_string(std::string_view s);

/// "timed-<case>-set-<set>-<role>.bin", inside the plan's output directory.
[[nodiscard]] std::string timed_output_file_name(std::size_t case_index, int set, output_role r);

/// A cheap fingerprint of one output: sums of the elements and of their absolute values (in
/// double; counts exactly), and how many elements still hold the poison word. Every timed call's
/// output is fingerprinted, so a launcher that writes garbage on calls that are not saved is seen.
struct output_digest {
  double sum = 0;
  double abs_sum = 0;
  std::size_t poison_words = 0;
  std::size_t non_finite = 0; ///< NaN or Inf elements that are not poison

  bool operator==(const output_digest&) const = default;
};

/// The digest of `count` elements of type `type` at `data`.
[[nodiscard]] output_digest digest_of(problems::element_type type, const std::byte* data,
                                      std::size_t count);

} // namespace cugrade::protocol
