#include "grader/core/diagnosis.h"

#include "grader/core/detail/diagnosis_evidence.h"
#include "grader/core/detail/diagnosis_kinds.h"
#include "reports/redact.h"

#include <algorithm>
#include <fmt/format.h>

namespace cugrade::grader {

namespace {

using reports::hint;
using reports::hint_code;
using reports::test_status;

// Every failed or faulty kernel gets at least one hint: the first wrong value, if nothing else.
hint fallback(const detail::evidence& ev) {
  const auto i = ev.visible_bad([&](std::size_t c) {
    const auto& cmp = ev.outcome(c).comparison;
    return ev.failed_without_fault(c) && cmp && cmp->first;
  });
  if (!i) {
    return {hint_code::wrong_result, "wrong results on hidden cases only: test shapes that are "
                                     "not multiples of the block or tile size, rectangular and "
                                     "tiny"};
  }
  const auto& c = *ev.outcome(*i).comparison;
  return {hint_code::wrong_result,
          fmt::format("wrong result on {}: element {} is {}, expected {} ({} of {} elements "
                      "differ)",
                      ev.at(*i).tc.name, c.first->index, c.first->got, c.first->expected,
                      c.mismatches, c.element_count),
          "",
          {"no pattern of shapes, data or values the grader recognises"}};
}

std::vector<hint> ranked_hints(const detail::evidence& ev) {
  std::vector<detail::candidate> candidates;
  for (const auto rule : detail::rules_for(ev.problem())) {
    if (auto c = rule(ev)) {
      candidates.push_back(std::move(*c));
    }
  }
  return detail::rank(std::move(candidates));
}

// The same kernel's outcomes without its hidden cases.
struct visible_cases {
  std::vector<graded_case> cases;
  std::vector<case_outcome> outcomes;
  diagnosis_input in;

  explicit visible_cases(const diagnosis_input& all) : in(all) {
    for (std::size_t i = 0; i < all.cases->size(); ++i) {
      if (i >= all.hidden.size() || !all.hidden[i]) {
        cases.push_back((*all.cases)[i]);
        outcomes.push_back((*all.outcomes)[i]);
      }
    }
    in.cases = &cases;
    in.outcomes = &outcomes;
    in.hidden.assign(cases.size(), false);
  }
};

// A hint's words and evidence come from the cases a student may see: the same rule over the
// visible cases alone, or, where only hidden cases show the mistake, its kind and nothing more
// (a hidden case's values, e.g. "the bins total 999, but n = 1000", name its size).
void keep_hidden_values_out(std::vector<hint>& hints, const diagnosis_input& in) {
  if (std::find(in.hidden.begin(), in.hidden.end(), true) == in.hidden.end()) {
    return;
  }
  const visible_cases visible(in);
  const std::vector<hint> from_visible = ranked_hints(detail::evidence(visible.in));
  for (hint& h : hints) {
    const auto same = std::find_if(from_visible.begin(), from_visible.end(),
                                   [&](const hint& v) { return v.code == h.code; });
    if (same != from_visible.end()) {
      h = *same;
    } else {
      h.message = reports::hidden_hint_message(h.code);
      h.evidence = {"seen only on hidden cases"};
    }
  }
}

} // namespace

std::vector<hint> diagnose(const diagnosis_input& in) {
  const detail::evidence ev(in);
  if (!ev.any([&](std::size_t i) { return !ev.good(i); })) {
    return {};
  }
  auto hints = ranked_hints(ev);
  keep_hidden_values_out(hints, in);
  if (hints.empty()) {
    hints.push_back(fallback(ev));
  }
  return hints;
}

} // namespace cugrade::grader
