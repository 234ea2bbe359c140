#include "grader/core/kernel_verdict.h"

#include "grader/core/diagnosis.h"

#include <fmt/format.h>

namespace cugrade::grader {

namespace {

using reports::hint;
using reports::hint_code;
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

std::optional<hint> fault_hint(const case_outcome& o, double time_limit) {
  const std::string& k = o.error_kind;
  if (k == "barrier_divergence" || k == "deadlock") {
    return hint{hint_code::barrier_divergence,
                "a barrier reached by only some threads of a block: " + o.message +
                    ". Every thread of the block must reach the same __syncthreads(); move it "
                    "out of the branch (e.g. out of `if (t < stride)`)"};
  }
  if (k == "out_of_bounds" || k == "illegal_address" || k == "misaligned_address") {
    const bool store_past_end = o.message.find("guard words") != std::string::npos;
    return hint{store_past_end ? hint_code::canary_overwritten : hint_code::out_of_bounds,
                o.message + (store_past_end ? ": a store past the end of the output; guard the "
                                              "store with the output's bounds"
                                            : ": an access outside a device buffer; check the "
                                              "boundary conditions of every load and store")};
  }
  if (k == "launch_failure") {
    return hint{hint_code::launch_failure,
                "the kernel launch failed: " + o.message +
                    ". A block has at most 1024 threads, grid and block dimensions must be "
                    "positive, and dynamic shared memory above 48 KiB needs cudaFuncSetAttribute"};
  }
  if (k == "timeout") {
    return hint{hint_code::timeout,
                fmt::format("a run exceeded the time limit of {:.0f} s: an infinite loop, or a "
                            "spin-wait or barrier that some threads never reach",
                            time_limit)};
  }
  if (k == "input_mutation") {
    return hint{hint_code::input_modified, o.message};
  }
  if (!k.empty()) {
    return hint{hint_code::wrong_result, "a fault at run time (" + k + "): " + o.message};
  }
  return std::nullopt;
}

std::vector<hint> hints_for(const spec::assignment_spec& spec,
                            const std::vector<graded_case>& cases,
                            const std::vector<case_outcome>& outcomes) {
  std::vector<hint> hints;
  for (const auto& o : outcomes) {
    if (auto h = fault_hint(o, spec.lim.kernel_seconds)) {
      hints.push_back(std::move(*h));
      break;
    }
  }
  std::vector<bool> hidden;
  for (const auto& c : cases) {
    hidden.push_back(spec.groups[c.group_index].vis == spec::visibility::hidden);
  }
  for (auto& h : diagnose(spec.problem, cases, outcomes, hidden)) {
    hints.push_back(std::move(h));
  }
  return hints;
}

// Every failed or faulty kernel gets at least one hint: the first wrong value, if nothing else.
hint fallback_hint(const std::vector<graded_case>& cases, const std::vector<case_outcome>& outcomes,
                   const spec::assignment_spec& spec) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = outcomes[i].comparison;
    if (outcomes[i].status == test_status::failed && c && c->first &&
        spec.groups[cases[i].group_index].vis != spec::visibility::hidden) {
      return hint{hint_code::wrong_result,
                  fmt::format("wrong result on {}: element {} is {}, expected {} ({} of {} "
                              "elements differ)",
                              cases[i].tc.name, c->first->index, c->first->got, c->first->expected,
                              c->mismatches, c->element_count)};
    }
  }
  return hint{hint_code::wrong_result, "wrong results on hidden cases only: test shapes that "
                                       "are not multiples of the tile, rectangular and tiny"};
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
                                      const std::vector<case_outcome>& outcomes) {
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
    k.diagnosis = hints_for(spec, cases, outcomes);
    if (k.diagnosis.empty()) {
      k.diagnosis.push_back(fallback_hint(cases, outcomes, spec));
    }
  }
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
