// Reduction's part of diagnosis (diagnosis_kinds.h), from the value of its single-sum output: a
// result never cleared before the blocks add into it, and a result that sums only some blocks of
// the input (its own code, partial_sum, matched when the case is evaluated: match_block_sums).
#include "grader/core/detail/diagnosis_kinds.h"

#include <cmath>
#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

using reports::hint_code;

const hint_code partial_sum{"partial_sum", "only part of the input is summed"};

// The one output value against the sums of whole blocks of the input (output_patterns.h).
void match_block_sums(std::span<const problems::buffer> inputs, output_evidence& out) {
  if (inputs.empty() || out.got.size() != 1) {
    return;
  }
  const auto input = inputs[0].as<float>();
  double abs_sum = 0;
  for (const float x : input) {
    abs_sum += std::fabs(static_cast<double>(x));
  }
  // Far below any real difference between two partial sums, well above float32 rounding.
  const double tolerance = 1e-5 * abs_sum + 1e-6;
  out.partial_sum = match_partial_sum(input, out.got[0], tolerance);
}

std::string partial_words(const partial_sum_match& m, long n) {
  if (m.prefix && m.count == m.block) {
    return fmt::format("the sum of its first {} elements (one block's partial sum)", m.count);
  }
  if (m.prefix) {
    return fmt::format("the sum of its first {} elements only, not of all n = {}", m.count, n);
  }
  if (m.with_last_block) {
    return fmt::format("the sum of {} of its n = {} elements (some whole blocks and the last, "
                       "partial one)",
                       m.count, n);
  }
  if (m.count == 1 && m.first + 1 == static_cast<std::size_t>(n)) {
    return fmt::format("its last element alone (element {}, the last block's)", m.first);
  }
  if (m.count < m.block) {
    return fmt::format("the sum of its last {} elements alone (elements {}..{}, the last block's)",
                       m.count, m.first, m.first + m.count - 1);
  }
  return fmt::format("the partial sum of elements {}..{} alone (one block of {})", m.first,
                     m.first + m.count - 1, m.block);
}

std::optional<candidate> not_cleared_result(const evidence& ev) {
  const auto failing = failing_with_values(ev);
  if (failing.size() < 2) {
    return std::nullopt;
  }
  candidate c{hint_code::not_cleared,
              specificity::cause,
              "the result is NaN on every size, with inputs that hold no NaN: *result arrives "
              "holding garbage (here a NaN) and the kernel adds into it without clearing it. "
              "Set it to 0 (cudaMemset(result, 0, sizeof(float))) before the blocks add their "
              "partial sums",
              "",
              {},
              {}};
  c.support.push_back(fmt::format("NaN on all {} failing cases", failing.size()));
  c.failures_explained = failing.size();
  for (const std::size_t i : failing) {
    if (!std::isnan(ev.outcome(i).evidence.got[0])) {
      c.contradictions.push_back(fmt::format("{} gives a number, not NaN", ev.name(i)));
      break;
    }
  }
  // Adding into the poison (a signalling NaN) gives a quiet NaN, on a CPU as on a GPU: a result
  // still holding the poison word was never written, so nothing was added into it.
  for (const std::size_t i : failing) {
    const auto& cmp = ev.outcome(i).comparison;
    if (cmp && cmp->poison_count > 0) {
      c.contradictions.push_back(
          fmt::format("{} still holds the poison: nothing was added into *result", ev.name(i)));
      break;
    }
  }
  if (const auto p = ev.first([&](std::size_t i) { return ev.good(i); })) {
    c.contradictions.push_back(fmt::format("{} passes", ev.name(*p)));
  }
  return c;
}

// Whether the result was added into without being cleared, with nothing against it.
bool result_not_cleared(const evidence& ev) {
  const auto c = not_cleared_result(ev);
  return c && c->contradictions.empty();
}

std::optional<candidate> partial_sum_pattern(const evidence& ev) {
  const auto failing = failing_with_values(ev);
  std::vector<std::size_t> matched;
  for (const std::size_t i : failing) {
    if (ev.outcome(i).evidence.partial_sum) {
      matched.push_back(i);
    }
  }
  if (matched.empty()) {
    return std::nullopt;
  }
  const std::size_t i = matched.front();
  candidate c{partial_sum,
              specificity::cause,
              fmt::format("the result on {} is {}: only some blocks' partial sums reached "
                          "*result. Launch enough blocks for all n elements (or loop over them), "
                          "and have every block add its partial sum with atomicAdd(result, "
                          "partial) after *result is cleared once, or reduce the partial sums in "
                          "a second pass",
                          ev.name(i),
                          partial_words(*ev.outcome(i).evidence.partial_sum, ev.dims(i).n)),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("{} of {} failing cases equal a sum of whole blocks of the input",
                                  matched.size(), failing.size()));
  c.failures_explained = matched.size();
  // Blocks that cover the first `count` elements sum every input that is no longer.
  if (const auto& m = *ev.outcome(i).evidence.partial_sum; m.prefix) {
    c.passes_predicted =
        ev.count_good([&](std::size_t k) { return ev.dims(k).n <= static_cast<long>(m.count); });
  }
  if (2 * matched.size() < failing.size()) {
    c.contradictions.push_back("most failing results are not a sum of whole blocks");
  }
  return c;
}

} // namespace

kind_diagnosis reduction_diagnosis() {
  return {.kind = "reduction",
          .rules = {{rule_place::after_faults, not_cleared_result},
                    {rule_place::after_faults, partial_sum_pattern}},
          .codes = {partial_sum},
          .output_not_cleared = result_not_cleared,
          .read_output = match_block_sums};
}

} // namespace cugrade::grader::detail
