// Scan's part of diagnosis (diagnosis_kinds.h), from the values of its running totals: sections
// that restart from 0 (their carry never added: sections_not_carried) and an exclusive scan where
// an inclusive one is asked for (exclusive_scan). Both read the kept output values (outputs of at
// most kept_output_elements).
#include "grader/core/detail/diagnosis_kinds.h"

#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

using reports::hint_code;

const hint_code sections_not_carried{"sections_not_carried",
                                     "the sections' totals are not carried into the sections "
                                     "after them"};
const hint_code exclusive_scan{"exclusive_scan",
                               "an exclusive scan is computed where an inclusive one is asked for"};

std::vector<std::size_t> failing_with_whole_output(const evidence& ev) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    const auto& v = ev.outcome(i).evidence;
    if (ev.failed_without_fault(i) && !v.got.empty() && v.got.size() == v.expected.size()) {
      out.push_back(i);
    }
  }
  return out;
}

std::optional<std::size_t> first_wrong(const std::vector<double>& got,
                                       const std::vector<double>& expected) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!close_values(got[i], expected[i])) {
      return i;
    }
  }
  return std::nullopt;
}

// The section length f when output[f ..] restarts from 0 at f: output[i] = expected[i] -
// expected[f - 1] over the whole next section [f, 2f).
std::optional<std::size_t> restart_at(const std::vector<double>& got,
                                      const std::vector<double>& expected) {
  const auto f = first_wrong(got, expected);
  if (!f || *f == 0) {
    return std::nullopt;
  }
  const double carry = expected[*f - 1];
  for (std::size_t i = *f; i < std::min(got.size(), 2 * *f); ++i) {
    if (!close_values(got[i], expected[i] - carry)) {
      return std::nullopt;
    }
  }
  return f;
}

// output[0] == 0 and output[i] == expected[i - 1]: each element misses its own input.
bool exclusive(const std::vector<double>& got, const std::vector<double>& expected) {
  if (got.size() < 2 || got[0] != 0) {
    return false;
  }
  for (std::size_t i = 1; i < got.size(); ++i) {
    if (!close_values(got[i], expected[i - 1])) {
      return false;
    }
  }
  return true;
}

std::optional<candidate> carry_missing_pattern(const evidence& ev) {
  const auto failing = failing_with_whole_output(ev);
  std::vector<std::pair<std::size_t, std::size_t>> matched; // case, section length
  for (const std::size_t i : failing) {
    if (const auto f = restart_at(ev.outcome(i).evidence.got, ev.outcome(i).evidence.expected)) {
      matched.emplace_back(i, *f);
    }
  }
  if (matched.empty()) {
    return std::nullopt;
  }
  const auto [i, f] = matched.front();
  candidate c{sections_not_carried,
              specificity::cause,
              fmt::format("on {}, the running sums restart from 0 at output[{}]: each section of "
                          "{} elements is scanned on its own and the totals of the sections "
                          "before it are never added. Write each section's total to scratch "
                          "memory, scan those totals (the same way: they may need more than one "
                          "block too), and add to every element of section b the scanned total of "
                          "sections 0 to b - 1, in a kernel launched after the first",
                          ev.name(i), f, f),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("{} of {} failing cases restart from 0 at a section boundary",
                                  matched.size(), failing.size()));
  // Sections that restart from 0 make every size above one section wrong, outputs too large to
  // keep their values included, and every size within one section right.
  const auto within = [&](std::size_t k) { return ev.dims(k).n <= static_cast<long>(f); };
  c.failures_explained = matched.size() + ev.count_bad([&](std::size_t k) {
    return !within(k) && ev.failed_without_fault(k) && ev.outcome(k).evidence.got.empty();
  });
  c.passes_predicted = ev.count_good(within);
  if (2 * matched.size() < failing.size()) {
    c.contradictions.push_back("most failing outputs do not restart at a section boundary");
  }
  return c;
}

std::optional<candidate> exclusive_scan_pattern(const evidence& ev) {
  const auto failing = failing_with_whole_output(ev);
  std::vector<std::size_t> matched;
  for (const std::size_t i : failing) {
    if (exclusive(ev.outcome(i).evidence.got, ev.outcome(i).evidence.expected)) {
      matched.push_back(i);
    }
  }
  if (matched.empty()) {
    return std::nullopt;
  }
  candidate c{exclusive_scan,
              specificity::cause,
              fmt::format("on {}, output[0] is 0 and every output[i] is the sum of the elements "
                          "before i without input[i] itself: an exclusive scan, where the "
                          "contract asks for an inclusive one (output[i] = input[0] + ... + "
                          "input[i], so output[0] == input[0]). Load input[i], not input[i - 1]",
                          ev.name(matched.front())),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("{} of {} failing cases are the exclusive scan of the input",
                                  matched.size(), failing.size()));
  // An exclusive scan is wrong on every size, outputs too large to keep their values included.
  c.failures_explained = matched.size() + ev.count_bad([&](std::size_t k) {
    return ev.failed_without_fault(k) && ev.outcome(k).evidence.got.empty();
  });
  if (2 * matched.size() < failing.size()) {
    c.contradictions.push_back("most failing outputs are not the exclusive scan");
  }
  return c;
}

} // namespace

kind_diagnosis scan_diagnosis() {
  return {.kind = "scan",
          .rules = {{rule_place::after_faults, carry_missing_pattern},
                    {rule_place::after_faults, exclusive_scan_pattern}},
          .codes = {sections_not_carried, exclusive_scan}};
}

} // namespace cugrade::grader::detail
