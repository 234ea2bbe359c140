// A hint from outputs that answer an earlier call: a result kept across calls (cached by
// pointer, by size, or unconditionally).
#include "grader/core/detail/diagnosis_evidence.h"

#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

using reports::hint_code;

// The earlier case whose answer case i's output is, if any.
std::optional<std::size_t> earlier_answer(const evidence& ev, std::size_t i) {
  const auto& v = ev.outcome(i).evidence;
  for (std::size_t j = 0; j < i; ++j) {
    const auto& earlier = ev.outcome(j).evidence.expected;
    if (!earlier.empty() && earlier != v.expected && same_answer(v.got, earlier, 1e-5)) {
      return j;
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<candidate> stale_result_pattern(const evidence& ev) {
  const auto failing = failing_with_values(ev);
  std::vector<std::pair<std::size_t, std::size_t>> repeats;
  for (const std::size_t i : failing) {
    if (const auto j = earlier_answer(ev, i)) {
      repeats.emplace_back(i, *j);
    }
  }
  if (repeats.empty()) {
    return std::nullopt;
  }
  const auto [i, j] = repeats.front();
  candidate c{hint_code::stale_result,
              specificity::cause,
              fmt::format("the output on {} is exactly the answer for {}, an earlier call's "
                          "inputs: a result was kept across calls (cached by pointer, by size or "
                          "unconditionally). Every call must compute from its own inputs",
                          ev.name(i), ev.name(j)),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("{} of {} failing outputs are answers to earlier calls, e.g. {} "
                                  "returned the answer of {}",
                                  repeats.size(), failing.size(), ev.name(i), ev.name(j)));
  c.failures_explained = repeats.size();
  // Small integer answers collide by chance: one repeat among many failures is no pattern.
  if (repeats.size() < 2 || 2 * repeats.size() < failing.size()) {
    c.contradictions.push_back("most failing outputs are not an earlier call's answer");
  }
  if (const auto s = ev.first_schedule_dependent()) {
    c.contradictions.push_back(fmt::format("the output on {} changed between two runs, which a "
                                           "kept result would not",
                                           ev.name(*s)));
  }
  return c;
}

} // namespace cugrade::grader::detail
