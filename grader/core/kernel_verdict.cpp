#include "grader/core/kernel_verdict.h"

#include "grader/core/diagnosis.h"

#include <fmt/format.h>

namespace cugrade::grader {

namespace {

using reports::hint;
using reports::kernel_status;
using reports::test_status;

reports::test_result test_entry(const spec::assignment_spec& spec, const graded_case& c,
                                const case_outcome& o) {
  const auto& group = spec.groups[c.group_index];
  reports::test_result t;
  t.name = c.tc.name;
  t.group = group.name;
  t.vis = to_report(group.vis);
  t.status = o.status;
  if (group.vis == spec::visibility::hidden) {
    return t; // a hidden case reports its verdict only
  }
  t.shape = problems::describe(spec.problem, c.tc.dims);
  t.distribution = c.tc.distribution;
  t.message = o.message;
  t.output = o.output;
  t.output_bytes = o.output_bytes;
  if (o.comparison) {
    t.max_abs_error = o.comparison->max_abs_error;
    t.max_rel_error = o.comparison->max_rel_error;
    t.mismatches = o.comparison->mismatches;
    if (o.comparison->first) {
      const auto& m = *o.comparison->first;
      t.first_mismatch = reports::mismatch_info{m.index, m.expected, m.got};
    }
    if (t.message.empty() && !o.comparison->note.empty()) {
      t.message = o.comparison->note;
    }
  }
  return t;
}

std::vector<reports::group_result> group_entries(const spec::assignment_spec& spec,
                                                 const spec::kernel_spec& kernel,
                                                 const std::vector<graded_case>& cases,
                                                 const std::vector<case_outcome>* outcomes) {
  std::vector<reports::group_result> groups;
  const double total = spec.total_weight();
  for (std::size_t g = 0; g < spec.groups.size(); ++g) {
    reports::group_result r;
    r.name = spec.groups[g].name;
    r.vis = to_report(spec.groups[g].vis);
    r.max_score = total > 0 ? kernel.points * spec.groups[g].weight / total : 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (cases[i].group_index == g) {
        ++r.cases;
        const bool passed = outcomes && (*outcomes)[i].status == test_status::passed;
        r.cases_passed += passed ? 1 : 0;
      }
    }
    r.passed = outcomes && r.cases > 0 && r.cases_passed == r.cases;
    r.score = r.passed ? r.max_score : 0;
    groups.push_back(r);
  }
  return groups;
}

kernel_status status_of(const std::vector<case_outcome>& outcomes) {
  auto any = [&](test_status s) {
    for (const auto& o : outcomes) {
      if (o.status == s) {
        return true;
      }
    }
    return false;
  };
  if (any(test_status::error)) {
    return kernel_status::error;
  }
  if (any(test_status::timeout)) {
    return kernel_status::timeout;
  }
  if (any(test_status::failed) || any(test_status::not_run)) {
    return kernel_status::failed;
  }
  return kernel_status::passed;
}

std::vector<bool> hidden_cases(const spec::assignment_spec& spec,
                               const std::vector<graded_case>& cases) {
  std::vector<bool> hidden;
  for (const auto& c : cases) {
    hidden.push_back(spec.groups[c.group_index].vis == spec::visibility::hidden);
  }
  return hidden;
}

// A fault is described once, in the kernel's message; tests that stopped on the same fault
// refer to it instead of repeating it.
void refer_to_kernel_message(reports::kernel_report& k) {
  if (k.message.empty()) {
    return;
  }
  const std::string reference = k.diagnosis.empty()
                                    ? "the same fault as the kernel's message"
                                    : fmt::format("the same fault as the kernel's message (hint "
                                                  "{})",
                                                  reports::to_string(k.diagnosis.front().code));
  for (auto& t : k.tests) {
    if (t.message == k.message) {
      t.message = reference;
    }
  }
}

} // namespace

reports::visibility to_report(spec::visibility v) {
  switch (v) {
  case spec::visibility::hidden:
    return reports::visibility::hidden;
  case spec::visibility::after_due_date:
    return reports::visibility::after_due_date;
  case spec::visibility::after_published:
    return reports::visibility::after_published;
  case spec::visibility::visible:
    break;
  }
  return reports::visibility::visible;
}

reports::kernel_report kernel_verdict(const spec::assignment_spec& spec,
                                      const spec::kernel_spec& kernel,
                                      const std::vector<graded_case>& cases,
                                      const std::vector<case_outcome>& outcomes,
                                      source_facts facts) {
  reports::kernel_report k;
  k.name = kernel.name;
  k.max_score = kernel.points + kernel.performance_points;
  k.performance_max = kernel.performance_points;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    k.tests.push_back(test_entry(spec, cases[i], outcomes[i]));
  }
  k.groups = group_entries(spec, kernel, cases, &outcomes);
  for (const auto& g : k.groups) {
    k.score += g.score;
  }
  k.status = status_of(outcomes);
  for (const auto& o : outcomes) {
    if (o.status == test_status::error || o.status == test_status::timeout) {
      k.error_kind = o.error_kind;
      k.message = o.message;
      break;
    }
  }
  if (k.status != kernel_status::passed) {
    k.diagnosis = diagnose({spec.problem, kernel.name, &cases, &outcomes, hidden_cases(spec, cases),
                            spec.lim.kernel_seconds, std::move(facts), spec.source_file});
  }
  refer_to_kernel_message(k);
  if (k.status == kernel_status::timeout) {
    k.error_kind.reset();
  }
  return k;
}

reports::kernel_report kernel_not_run(const spec::assignment_spec& spec,
                                      const spec::kernel_spec& kernel,
                                      reports::kernel_status status, hint why) {
  reports::kernel_report k;
  k.name = kernel.name;
  k.status = status;
  k.max_score = kernel.points + kernel.performance_points;
  k.performance_max = kernel.performance_points;
  k.message = why.message;
  k.groups = group_entries(spec, kernel, plan_cases(spec), nullptr);
  k.diagnosis.push_back(std::move(why));
  return k;
}

} // namespace cugrade::grader
