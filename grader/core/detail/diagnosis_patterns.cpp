// Hints from the pattern of which cases fail: sizes that are not multiples of the tile or block,
// rectangular shapes, data with more contention, runs that disagree, precision.
#include "grader/core/detail/diagnosis_evidence.h"
#include "grader/core/detail/diagnosis_kinds.h"

#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

using reports::hint_code;

// The same shape passes with one input distribution and fails with another.
std::optional<std::pair<std::size_t, std::size_t>> data_dependent_pair(const evidence& ev) {
  for (std::size_t i = 0; i < ev.size(); ++i) {
    if (!ev.failed_without_fault(i)) {
      continue;
    }
    for (std::size_t j = 0; j < ev.size(); ++j) {
      if (ev.good(j) && ev.dims(j) == ev.dims(i)) {
        return std::pair{i, j};
      }
    }
  }
  return std::nullopt;
}

std::string boundary_advice(const evidence& ev) {
  return problems::get(ev.problem()).advice(problems::advice_topic::boundary);
}

std::string unit_words(const evidence& ev) {
  const std::string& words = diagnosis_of(ev.problem()).alignment_words;
  return words.empty() ? fmt::format("a multiple of {}", alignment_unit) : words;
}

// Whether the failing case `i` shows a boundary mistake on its own (the kind says which do).
bool shows_boundary_alone(const evidence& ev, std::size_t i) {
  const auto shows = diagnosis_of(ev.problem()).shows_boundary_alone;
  return !shows || shows(ev.dims(i));
}

// Whether the kind explains results that change between runs as elements at the edge nobody
// wrote, rather than a race.
bool changes_are_unwritten_edges(const evidence& ev) {
  const auto explained = diagnosis_of(ev.problem()).changes_are_unwritten_edges;
  return explained && explained(ev);
}

// Whether the kind's output was never cleared before it was accumulated into.
bool output_not_cleared(const evidence& ev) {
  const auto not_cleared = diagnosis_of(ev.problem()).output_not_cleared;
  return not_cleared && not_cleared(ev);
}

void add_distribution_contradiction(const evidence& ev, candidate& c) {
  if (const auto pair = data_dependent_pair(ev)) {
    c.contradictions.push_back(fmt::format(
        "{} fails with {} data but passes with {}: the failures follow the data, not the size",
        ev.name(pair->first), ev.at(pair->first).tc.distribution,
        ev.at(pair->second).tc.distribution));
  }
}

} // namespace

bool boundary_shaped(const evidence& ev) {
  const bool aligned_passed = ev.any([&](std::size_t i) { return aligned(ev, i) && ev.good(i); });
  const bool aligned_failed = ev.any([&](std::size_t i) { return aligned(ev, i) && ev.bad(i); });
  const bool unaligned_failed = ev.any([&](std::size_t i) { return !aligned(ev, i) && ev.bad(i); });
  return aligned_passed && !aligned_failed && unaligned_failed;
}

std::optional<candidate> boundary_pattern(const evidence& ev) {
  const auto example =
      ev.visible_bad([&](std::size_t i) { return !aligned(ev, i) && shows_boundary_alone(ev, i); });
  const auto aligned_pass = ev.first([&](std::size_t i) { return aligned(ev, i) && ev.good(i); });
  if (!example || !aligned_pass) {
    return std::nullopt;
  }
  candidate c{hint_code::boundary_check,
              specificity::pattern,
              fmt::format("fails where a size is not {} (e.g. {}), while every size that is one "
                          "passes: check the boundaries. {}",
                          unit_words(ev), ev.name(*example), boundary_advice(ev)),
              ev.memory_fault_location(),
              {},
              {}};
  c.support.push_back(
      fmt::format("{} fails; {} passes", ev.name(*example), ev.name(*aligned_pass)));
  c.failures_explained = ev.count_bad([&](std::size_t i) { return !aligned(ev, i); });
  c.passes_predicted = ev.count_good([&](std::size_t i) { return aligned(ev, i); });
  if (const auto a = ev.first([&](std::size_t i) { return aligned(ev, i) && ev.bad(i); })) {
    c.contradictions.push_back(fmt::format("{} is {} and fails too", ev.name(*a), unit_words(ev)));
  }
  if (const auto p = ev.first([&](std::size_t i) { return !aligned(ev, i) && ev.good(i); });
      p && right_up_to_a_size(ev)) {
    c.contradictions.push_back(fmt::format("{} is not {} and passes, as does every size below "
                                           "the smallest that fails: the failures follow the "
                                           "size, not its alignment",
                                           ev.name(*p), unit_words(ev)));
  }
  // Outputs that change between runs at the edges only may be reads of elements nobody wrote
  // there (a tile hanging over the edge left unfilled); anywhere else they are a race.
  if (const auto s = ev.first_schedule_dependent(); s && !changes_are_unwritten_edges(ev)) {
    c.contradictions.push_back(fmt::format("the result on {} changed between runs", ev.name(*s)));
  }
  add_distribution_contradiction(ev, c);
  if (const auto p = ev.first([&](std::size_t i) {
        const auto& cmp = ev.outcome(i).comparison;
        return ev.bad(i) && cmp && cmp->poison_count > 0;
      });
      p && !output_not_cleared(ev)) {
    c.contradictions.push_back(fmt::format("{} left elements unwritten: the grid is too small, "
                                           "whatever the bounds checks",
                                           ev.name(*p)));
  }
  return c;
}

std::optional<candidate> race_pattern(const evidence& ev) {
  const auto i = ev.first_schedule_dependent();
  if (!i) {
    return std::nullopt;
  }
  const std::string advice = problems::get(ev.problem()).advice(problems::advice_topic::race);
  candidate c{hint_code::race,
              specificity::pattern,
              "the result changed between two runs on the same inputs, so it depends on the "
              "order in which the threads ran: a race. " +
                  advice,
              "",
              {},
              {}};
  c.support.push_back(fmt::format("two runs of {} gave different outputs", ev.name(*i)));
  c.failures_explained =
      ev.count_bad([&](std::size_t k) { return ev.outcome(k).schedule_dependent; });
  if (changes_are_unwritten_edges(ev)) {
    c.contradictions.push_back("every shape that is a multiple of the tile passes, multi-phase "
                               "ones included, where a missing barrier would show too: the "
                               "changing values are tile elements at the edge that nobody wrote");
  }
  return c;
}

// Exact on integer-valued inputs, wrong on real-valued ones: small errors are arithmetic below
// float32 (half, tf32); large ones are values truncated to integers.
std::optional<candidate> precision_pattern(const evidence& ev) {
  const auto exact_data = [&](std::size_t i) {
    const auto& d = ev.at(i).tc.distribution;
    return d == "integer" || d == "ones";
  };
  const auto integer_case = ev.first([&](std::size_t i) { return exact_data(i) && ev.ran(i); });
  const auto example = ev.visible_bad([&](std::size_t i) {
    const auto& cmp = ev.outcome(i).comparison;
    return !exact_data(i) && ev.failed_without_fault(i) && cmp && cmp->nan_count == 0 &&
           cmp->poison_count == 0;
  });
  if (!integer_case || !example) {
    return std::nullopt;
  }
  const double error = ev.outcome(*example).comparison->max_rel_error;
  const std::string why = error < 1e-2 ? "the arithmetic is less precise than float32 (half or "
                                         "tf32?)"
                                       : "a real value is truncated to an integer (an int "
                                         "accumulator, variable or conversion)";
  candidate c{hint_code::wrong_result,
              specificity::pattern,
              fmt::format("exact on integer-valued inputs but off by up to {:.1e} (relative) on "
                          "real-valued ones (e.g. {}): {}",
                          error, ev.name(*example), why),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("every case with integer inputs passes; {} (real inputs) fails",
                                  ev.name(*example)));
  c.failures_explained = ev.count_bad([&](std::size_t i) { return !exact_data(i); });
  c.passes_predicted = ev.count_good(exact_data);
  if (const auto b = ev.first([&](std::size_t i) { return exact_data(i) && ev.bad(i); })) {
    c.contradictions.push_back(fmt::format("{} has integer inputs and fails too", ev.name(*b)));
  }
  return c;
}

std::optional<candidate> poison_pattern(const evidence& ev) {
  const auto i = ev.first([&](std::size_t c) {
    const auto& cmp = ev.outcome(c).comparison;
    return ev.bad(c) && cmp && cmp->poison_count > 0;
  });
  if (!i) {
    return std::nullopt;
  }
  const auto& cmp = *ev.outcome(*i).comparison;
  const bool none = cmp.poison_count == cmp.element_count;
  candidate c{hint_code::poison_left,
              none ? specificity::cause : specificity::symptom,
              none ? "the output still holds the poison written before the call: the launcher "
                     "did not run the kernel, or the kernel wrote somewhere else (check the "
                     "launch, the grid size and the output pointer; results from an earlier call "
                     "never count)"
                   : fmt::format("{} of {} output elements were never written: the grid does not "
                                 "cover the whole output (round the number of blocks up: "
                                 "(size + block - 1) / block)",
                                 cmp.poison_count, cmp.element_count),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("{} of {} elements unwritten on {}", cmp.poison_count,
                                  cmp.element_count, ev.name(*i)));
  c.failures_explained = ev.count_bad([&](std::size_t k) {
    const auto& other = ev.outcome(k).comparison;
    return other && other->poison_count > 0;
  });
  if (!none && output_not_cleared(ev)) {
    c.contradictions.push_back("the unwritten elements are bins nobody counted into, in a "
                               "histogram whose other bins hold garbage plus their count");
  }
  if (const auto short_copy = bytes_for_elements_match(ev)) {
    c.contradictions.push_back(fmt::format("every failing output is right on exactly its first "
                                           "1/{} and wrong after it: a size in elements where "
                                           "bytes are counted, not a grid too small",
                                           short_copy->parts));
  }
  return c;
}

std::optional<candidate> nan_pattern(const evidence& ev) {
  const auto i = ev.first([&](std::size_t c) {
    const auto& cmp = ev.outcome(c).comparison;
    return ev.bad(c) && cmp && cmp->nan_count > 0;
  });
  if (!i) {
    return std::nullopt;
  }
  const auto& cmp = *ev.outcome(*i).comparison;
  candidate c{hint_code::wrong_result,
              specificity::symptom,
              fmt::format("{} output elements are NaN or infinite: a read past the end of an "
                          "input (the words after each input read as NaN) or of shared memory "
                          "nobody wrote",
                          cmp.nan_count),
              ev.memory_fault_location(),
              {},
              {}};
  c.support.push_back(fmt::format("{} NaN or infinite elements on {}", cmp.nan_count, ev.name(*i)));
  c.failures_explained = ev.count_bad([&](std::size_t k) {
    const auto& other = ev.outcome(k).comparison;
    return other && other->nan_count > 0;
  });
  if (output_not_cleared(ev)) {
    c.contradictions.push_back("the output is NaN on every size: it was never cleared");
  }
  return c;
}

} // namespace cugrade::grader::detail
