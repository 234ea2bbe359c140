// Hints from the sizes that pass and fail: every size up to some limit right, every larger one
// wrong, whatever its alignment. A kernel that covers a fixed amount of work (a second level that
// runs in one block, a capped grid with no grid-stride loop, an index that overflows) fails this
// way; a missing boundary check fails on sizes off the tile instead, small or large.
#include "grader/core/detail/diagnosis_evidence.h"
#include "grader/core/detail/diagnosis_kinds.h"

#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

using reports::hint_code;

// The smallest largest-passing size worth calling a limit: below a warp, "right up to n = 7"
// says only that tiny inputs pass, as they do for most mistakes.
constexpr long smallest_limit = 32;

} // namespace

// 262656 -> "262,656".
std::string grouped(long value) {
  const std::string digits = std::to_string(value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    const std::size_t left = digits.size() - i;
    if (i > 0 && left % 3 == 0 && digits[i - 1] != '-') {
      out += ',';
    }
    out += digits[i];
  }
  return out;
}

// Timeouts and cases that did not run say nothing of correctness and stop the pattern.
std::optional<size_split> split_by_size(const evidence& ev) {
  std::optional<std::size_t> pass;
  std::optional<std::size_t> fail;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    if (!ev.ran(i)) {
      continue;
    }
    if (!ev.good(i) && !ev.bad(i)) {
      return std::nullopt;
    }
    auto& side = ev.good(i) ? pass : fail;
    const bool further =
        !side || (ev.good(i) ? ev.extent(i) > ev.extent(*side) : ev.extent(i) < ev.extent(*side));
    if (further) {
      side = i;
    }
  }
  if (!pass || !fail || ev.extent(*pass) >= ev.extent(*fail)) {
    return std::nullopt;
  }
  return size_split{*pass, *fail};
}

namespace {

std::string size_words(const evidence& ev, std::size_t i) {
  const auto words = diagnosis_of(ev.problem()).size_words;
  return words ? words(ev, i) : fmt::format("n = {}", grouped(ev.extent(i)));
}

} // namespace

std::string size_threshold_words(problems::kind problem, const std::string& up_to,
                                 const std::string& from, const std::string& how) {
  return fmt::format("right for every size up to {} and wrong for every size from {} on{}, "
                     "multiples of 16 or not: not a boundary check but a limit on size. Likely {}",
                     up_to, from, how.empty() ? "" : " (" + how + ")",
                     problems::get(problem).advice(problems::advice_topic::size_limit));
}

bool right_up_to_a_size(const evidence& ev) {
  const auto split = split_by_size(ev);
  return split && ev.extent(split->largest_pass) >= smallest_limit;
}

std::optional<candidate> size_threshold_pattern(const evidence& ev) {
  if (!right_up_to_a_size(ev)) {
    return std::nullopt;
  }
  const auto split = split_by_size(ev);
  const std::size_t pass = split->largest_pass;
  const std::size_t fail = split->smallest_fail;
  candidate c{hint_code::size_threshold,
              specificity::pattern,
              size_threshold_words(ev.problem(), size_words(ev, pass), size_words(ev, fail), ""),
              ev.memory_fault_location(),
              {},
              {}};
  c.support.push_back(
      fmt::format("every case up to {} passes ({} cases); every case from {} "
                  "fails ({} cases)",
                  ev.name(pass), ev.count([&](std::size_t i) { return ev.good(i); }), ev.name(fail),
                  ev.count([&](std::size_t i) { return ev.bad(i); })));
  c.failures_explained = ev.count([&](std::size_t i) { return ev.bad(i); });
  c.passes_predicted = ev.count([&](std::size_t i) { return ev.good(i); });
  if (const auto s = ev.first_schedule_dependent()) {
    c.contradictions.push_back(fmt::format("the result on {} changed between runs: a race, which "
                                           "more blocks make likelier",
                                           ev.name(*s)));
  }
  return c;
}

} // namespace cugrade::grader::detail
