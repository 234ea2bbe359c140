#pragma once
/// \file
/// Sum reduction: *result = sum of n floats.
///
/// Distributions: "real_offset" (1 + uniform[-0.5, 0.5), so the sum grows with n and no
/// cancellation hides lost elements), "integer" (integers in [-8, 8]) and "ones" (all 1.0f, so
/// the answer is n and a wrong answer says how many elements were lost). The latter two compare
/// exactly while sum|x| <= 2^24; otherwise the result may differ by gamma_n * sum|x_i|.

#include "harness/problems/problem.h"

namespace cugrade::problems {

class reduction_problem final : public problem {
public:
  [[nodiscard]] std::string_view name() const override { return "reduction"; }
  [[nodiscard]] std::vector<shape> sanitizer_shapes() const override;
  [[nodiscard]] shape profile_shape() const override;
  [[nodiscard]] timed_check timed_output_check() const override { return timed_check::single_sum; }
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
