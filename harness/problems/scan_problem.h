#pragma once
/// \file
/// Inclusive prefix sum (scan): output[i] = input[0] + ... + input[i] for n floats.
///
/// Distributions are reduction's (float_inputs.h): "real_offset", "integer", "ones".
/// Tolerance, per element (derivation in docs/tolerances.md, "Scans"): output[i] is a sum of
/// i + 1 terms in some association order (Kogge-Stone, Brent-Kung, block sums added by a second
/// pass: each is a binary tree over input[0..i]), so
///   |got_i - exact_i| <= gamma_(i+1) * S_i,  S_i = |input[0]| + ... + |input[i]|,
/// with one term of slack for the double reference, and 0 on integer data while S_i <= 2^24.

#include "harness/problems/problem.h"

namespace cugrade::problems {

class scan_problem final : public problem {
public:
  [[nodiscard]] std::string_view name() const override { return "scan"; }
  [[nodiscard]] std::vector<shape> sanitizer_shapes() const override;
  [[nodiscard]] shape profile_shape() const override;
  [[nodiscard]] std::string advice(advice_topic topic) const override;
  [[nodiscard]] std::vector<std::string> launchers() const override;
  [[nodiscard]] std::string launcher_parameters() const override;
  [[nodiscard]] std::vector<std::string> distributions() const override;
  [[nodiscard]] std::vector<shape> edge_shapes() const override;
  [[nodiscard]] std::vector<case_template> benchmark_cases() const override;
  [[nodiscard]] std::vector<buffer_spec> inputs(const shape& s) const override;
  [[nodiscard]] buffer_spec output(const shape& s) const override;
  [[nodiscard]] std::vector<buffer> generate(const test_case& c) const override;
  [[nodiscard]] std::vector<double> reference(const test_case& c,
                                              const std::vector<buffer>& inputs) const override;
  [[nodiscard]] comparison compare(const test_case& c, const std::vector<buffer>& inputs,
                                   const std::vector<double>& expected,
                                   const buffer& actual) const override;
  [[nodiscard]] work_counts work(const shape& s) const override;
  [[nodiscard]] std::optional<technique_traffic> expected_traffic(std::string_view launcher,
                                                                  const shape& s) const override;
  [[nodiscard]] emulation_pace emulated_pace() const override;
  void invoke(void* launcher, const std::vector<void*>& device_inputs, void* device_output,
              const shape& s) const override;
};

} // namespace cugrade::problems
