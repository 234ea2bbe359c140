#include "grader/core/size_probe.h"

#include "grader/core/detail/diagnosis_evidence.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace cugrade::grader {

namespace {

using reports::hint_code;

bool one_size(problems::kind problem) {
  const auto params = problems::get(problem).shape_params();
  return params.size() == 1 && params.front().field == &problems::shape::n;
}

// Where a fixed second level (one block of B threads over S-element sections) or a fixed grid of
// S blocks of B elements stops: S x B, or S x (B + 1) when the last section's total is never
// needed. Strictly between the bracket's ends, in order.
std::vector<long> structural_limits(long above, long below) {
  std::set<long> out;
  for (long s = 32; s <= 2048; s *= 2) {
    for (long b = 32; b <= 2048; b *= 2) {
      for (const long limit : {s * b, s * (b + 1)}) {
        if (limit > above && limit < below) {
          out.insert(limit);
        }
      }
    }
  }
  return {out.begin(), out.end()};
}

// Grades size n; records it in `limit`. False when the search must stop.
bool probe(size_limit& limit, long n, const grade_one_case& grade_one) {
  if (limit.probes >= max_size_probes) {
    return false;
  }
  ++limit.probes;
  const auto passed = grade_one(probe_case(limit.model, n));
  if (!passed) {
    return false;
  }
  if (*passed) {
    limit.largest_passing = std::max(limit.largest_passing, n);
  } else {
    limit.smallest_failing = std::min(limit.smallest_failing, n);
  }
  return true;
}

} // namespace

std::optional<size_limit> size_bracket(problems::kind problem,
                                       const std::vector<graded_case>& cases,
                                       const std::vector<case_outcome>& outcomes,
                                       const std::vector<bool>& hidden) {
  if (!one_size(problem)) {
    return std::nullopt;
  }
  std::vector<graded_case> seen;
  std::vector<case_outcome> seen_outcomes;
  for (std::size_t i = 0; i < cases.size() && i < outcomes.size(); ++i) {
    if (i >= hidden.size() || !hidden[i]) {
      seen.push_back(cases[i]);
      seen_outcomes.push_back(outcomes[i]);
    }
  }
  const diagnosis_input in{
      problem, "", &seen, &seen_outcomes, std::vector<bool>(seen.size(), false), 0};
  const detail::evidence ev(in);
  if (!detail::right_up_to_a_size(ev)) {
    return std::nullopt;
  }
  const auto split = *detail::split_by_size(ev);
  return size_limit{ev.extent(split.largest_pass), ev.extent(split.smallest_fail), 0,
                    seen[split.smallest_fail]};
}

graded_case probe_case(const graded_case& model, long n) {
  graded_case c = model;
  c.tc.dims.n = n;
  c.tc.name = fmt::format("size probe/n={}/{}", n, model.tc.distribution);
  c.tc.seed = model.tc.seed ^ (static_cast<std::uint64_t>(n) * 0x9e3779b97f4a7c15ull);
  return c;
}

size_limit narrow_size_limit(size_limit bracket, const grade_one_case& grade_one) {
  // The limits a fixed structure gives, by halves of that list: each run discards half of them.
  bool structural = false; // the largest passing size is one of them
  for (;;) {
    const auto left = structural_limits(bracket.largest_passing, bracket.smallest_failing);
    if (left.empty()) {
      break;
    }
    const long guess = left[left.size() / 2];
    if (!probe(bracket, guess, grade_one)) {
      return bracket;
    }
    structural = structural || bracket.largest_passing == guess;
  }
  // A structural limit that passes is most likely exact: the size after it first. Then halves.
  if (structural && !bracket.exact() && !probe(bracket, bracket.largest_passing + 1, grade_one)) {
    return bracket;
  }
  while (!bracket.exact()) {
    const long middle = bracket.largest_passing +
                        std::max(1L, (bracket.smallest_failing - bracket.largest_passing) / 2);
    if (!probe(bracket, middle, grade_one)) {
      break;
    }
  }
  return bracket;
}

void name_size_limit(reports::kernel_report& k, problems::kind problem, const size_limit& limit) {
  const auto h = std::find_if(k.diagnosis.begin(), k.diagnosis.end(), [](const reports::hint& x) {
    return x.code == hint_code::size_threshold;
  });
  if (h == k.diagnosis.end() || limit.probes == 0) {
    return;
  }
  const std::string how =
      limit.exact() ? fmt::format("{} extra sizes graded to find the limit", limit.probes)
                    : fmt::format("{} extra sizes graded; the limit lies between", limit.probes);
  h->message =
      detail::size_threshold_words(problem, "n = " + detail::grouped(limit.largest_passing),
                                   "n = " + detail::grouped(limit.smallest_failing), how);
  h->evidence.push_back(fmt::format("extra sizes graded: n = {} passes, n = {} fails",
                                    limit.largest_passing, limit.smallest_failing));
}

void measure_size_limit(const spec::assignment_spec& spec, const std::string& launcher,
                        const std::filesystem::path& library, const std::filesystem::path& work_dir,
                        const std::vector<graded_case>& cases,
                        const std::vector<case_outcome>& outcomes, double seconds_left,
                        const run_plan& run, reports::kernel_report& k) {
  if (k.diagnosis.empty() || k.diagnosis.front().code != hint_code::size_threshold) {
    return;
  }
  std::vector<bool> hidden;
  for (const auto& c : cases) {
    hidden.push_back(spec.groups[c.group_index].vis == spec::visibility::hidden);
  }
  const auto bracket = size_bracket(spec.problem, cases, outcomes, hidden);
  if (!bracket) {
    return;
  }
  const double limit = spec.lim.kernel_seconds;
  std::size_t part = 0;
  const auto grade_one = [&](const graded_case& c) -> std::optional<bool> {
    if (seconds_left < 0.25 * limit) {
      return std::nullopt;
    }
    const auto plan = make_plan(spec.problem, launcher, library,
                                work_dir / ("size-probe-" + std::to_string(part++)), {c}, 1);
    auto ran = run(plan, seconds_left);
    if (!ran) {
      return std::nullopt;
    }
    seconds_left -= ran->wall_seconds;
    const auto outcome =
        evaluate_cases(problems::get(spec.problem), {c}, ran->log, plan.output_dir, ran->exit)
            .front();
    if (outcome.status == reports::test_status::passed) {
      return true;
    }
    const bool judged = outcome.status == reports::test_status::failed ||
                        outcome.status == reports::test_status::error;
    return judged ? std::optional(false) : std::nullopt;
  };
  name_size_limit(k, spec.problem, narrow_size_limit(*bracket, grade_one));
}

} // namespace cugrade::grader
