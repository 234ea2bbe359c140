// The registration list of kinds' diagnoses: one line per kind, naming the function its own file
// (diagnosis_<kind>.cpp) defines. Adding a kind's hints adds its file and one line here.
#include "grader/core/detail/diagnosis_kinds.h"

#include <algorithm>

namespace cugrade::grader::detail {

kind_diagnosis matmul_diagnosis();
kind_diagnosis histogram_diagnosis();
kind_diagnosis reduction_diagnosis();
kind_diagnosis scan_diagnosis();
kind_diagnosis convolution_diagnosis();

const std::vector<kind_diagnosis>& registered_diagnoses() {
  static const std::vector<kind_diagnosis> kinds{matmul_diagnosis(), histogram_diagnosis(),
                                                 reduction_diagnosis(), scan_diagnosis(),
                                                 convolution_diagnosis()};
  return kinds;
}

const kind_diagnosis& diagnosis_of(problems::kind k) {
  static const kind_diagnosis shared_rules_only{};
  const auto& kinds = registered_diagnoses();
  const auto it = std::find_if(kinds.begin(), kinds.end(), [&](const kind_diagnosis& d) {
    return d.kind == problems::to_string(k);
  });
  return it == kinds.end() ? shared_rules_only : *it;
}

namespace {

// The kind's rules at one place, in their order.
void add_kind_rules(std::vector<rule>& rules, const kind_diagnosis& kind, rule_place place) {
  for (const kind_rule& r : kind.rules) {
    if (r.place == place) {
      rules.push_back(r.check);
    }
  }
}

} // namespace

std::vector<rule> rules_for(problems::kind k) {
  // The order breaks ties between equally specific hints; it never depends on the data.
  const kind_diagnosis& kind = diagnosis_of(k);
  std::vector<rule> rules{barrier_fault,    race_fault,  launch_fault,  assert_fault,
                          misaligned_fault, input_fault, timeout_fault, bytes_for_elements_pattern};
  add_kind_rules(rules, kind, rule_place::after_faults);
  rules.insert(rules.end(), {stale_result_pattern, early_exit_cause, warp_steps_cause});
  add_kind_rules(rules, kind, rule_place::after_early_exits);
  rules.insert(rules.end(), {boundary_pattern, size_threshold_pattern});
  add_kind_rules(rules, kind, rule_place::after_size_patterns);
  rules.insert(rules.end(), {race_pattern, precision_pattern});
  add_kind_rules(rules, kind, rule_place::after_precision);
  rules.push_back(memory_fault);
  add_kind_rules(rules, kind, rule_place::after_memory_faults);
  rules.insert(rules.end(), {poison_pattern, nan_pattern, other_fault});
  return rules;
}

} // namespace cugrade::grader::detail
