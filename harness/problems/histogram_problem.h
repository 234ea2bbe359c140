#pragma once
/// \file
/// 256-bin histogram of n bytes: bins[v] = number of bytes equal to v. Compared exactly; the
/// comparison also reports the bins' total against n, which tells a dropped or double-counted
/// byte (total off) from a byte counted in the wrong bin (total right).

#include "harness/problems/problem.h"

namespace cugrade::problems {

inline constexpr std::size_t histogram_bins = 256;

class histogram_problem final : public problem {
public:
  [[nodiscard]] std::string_view name() const override { return "histogram"; }
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
