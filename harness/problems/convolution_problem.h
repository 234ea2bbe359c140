#pragma once
/// \file
/// 2-D convolution with zero ghost cells (PMPP's chapter on convolution, constant memory and
/// halo cells): P[i][j] = sum over a, b in [0, 2r] of F[a][b] * N[i - r + a][j - r + b], where
/// N is a height x width image (row-major), F the (2r + 1) x (2r + 1) mask (row-major), and an
/// element of N outside the image (a ghost cell) counts as 0. r is 1, 2 or 3: a mask of at most
/// 7 x 7 floats, small enough for __constant__ memory.
///
/// Distributions are matmul's: "real" (uniform in [-1, 1) on a 2^-23 grid) and "integer"
/// (integers in [-4, 4], whose float32 sums are exact: at most 49 * 16 in magnitude).
/// Tolerance, per element (docs/tolerances.md, "Convolutions"): P[i][j] is a sum of at most
/// (2r + 1)^2 products in some order, so |got - exact| <= gamma_((2r+1)^2 + 1) * sum|F N| over
/// the window inside the image; integer data compare exactly.

#include "harness/problems/problem.h"

namespace cugrade::problems {

class convolution_problem final : public problem {
public:
  [[nodiscard]] std::string_view name() const override { return "convolution"; }
  [[nodiscard]] std::vector<shape_param> shape_params() const override;
  [[nodiscard]] std::string shape_words() const override;
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
