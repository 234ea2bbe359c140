#pragma once
/// \file
/// Matrix multiplication P = M N, row-major, M j x k, N k x l, P j x l (float32).
///
/// Distributions: "real" (uniform in [-1, 1) on a 2^-23 grid) and "integer" (integers in
/// [-4, 4], whose float32 dot products are exact while sum|m n| <= 2^24, so they compare exactly).
/// Each element of P may differ from the double reference by gamma_{k+1} * sum_k |m_ik n_kj|.

#include "harness/problems/problem.h"

namespace cugrade::problems {

class matmul_problem final : public problem {
public:
  [[nodiscard]] std::string_view name() const override { return "matmul"; }
  [[nodiscard]] std::vector<shape_param> shape_params() const override;
  [[nodiscard]] std::string shape_words() const override;
  [[nodiscard]] std::vector<shape> sanitizer_shapes() const override;
  [[nodiscard]] shape profile_shape() const override;
  [[nodiscard]] boundness bound() const override { return boundness::compute; }
  [[nodiscard]] timed_check timed_output_check() const override {
    return timed_check::sampled_rows;
  }
  [[nodiscard]] std::string advice(advice_topic topic) const override;
  [[nodiscard]] std::vector<std::string> launchers() const override;
  [[nodiscard]] std::string launcher_parameters() const override;
  [[nodiscard]] std::vector<std::string> distributions() const override;
  [[nodiscard]] std::vector<shape> edge_shapes() const override;
  [[nodiscard]] std::vector<case_template> benchmark_cases() const override;
  [[nodiscard]] std::vector<buffer_spec> inputs(const shape& s) const override;
  [[nodiscard]] buffer_spec output(const shape& s) const override;
  [[nodiscard]] std::vector<buffer> generate(const test_case& c) const override;
  [[nodiscard]] std::optional<std::vector<float_recipe>>
  float_recipes(const test_case& c) const override;
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
