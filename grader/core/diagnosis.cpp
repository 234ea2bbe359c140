#include "grader/core/diagnosis.h"

#include <cmath>
#include <fmt/format.h>
#include <optional>

namespace cugrade::grader {

namespace {

using reports::hint;
using reports::hint_code;
using reports::test_status;

struct evidence {
  problems::kind problem;
  const std::vector<graded_case>& cases;
  const std::vector<case_outcome>& outcomes;
  const std::vector<bool>& hidden;

  [[nodiscard]] bool bad(std::size_t i) const {
    return outcomes[i].status == test_status::failed || outcomes[i].status == test_status::error;
  }
  [[nodiscard]] bool good(std::size_t i) const { return outcomes[i].status == test_status::passed; }
  /// Cases that never ran say nothing either way.
  [[nodiscard]] bool ran(std::size_t i) const { return outcomes[i].status != test_status::not_run; }
  /// A failing case the student may be told about, for examples.
  [[nodiscard]] std::optional<std::size_t> visible_bad(auto&& pred) const {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (bad(i) && !hidden[i] && pred(i)) {
        return i;
      }
    }
    return std::nullopt;
  }
  [[nodiscard]] std::string example(std::size_t i) const {
    return problems::describe(problem, cases[i].tc.dims);
  }
};

bool is_square(const problems::shape& s) {
  return s.j == s.k && s.k == s.l;
}

// Failures only where some size is not a multiple of the tile, with aligned sizes all passing.
std::optional<hint> boundary_hint(const evidence& ev) {
  bool aligned_case_seen = false;
  for (std::size_t i = 0; i < ev.cases.size(); ++i) {
    if (!ev.ran(i)) {
      continue;
    }
    const bool aligned = all_multiples_of(ev.problem, ev.cases[i].tc.dims, 16);
    if (aligned && !ev.good(i)) {
      return std::nullopt;
    }
    aligned_case_seen = aligned_case_seen || (aligned && ev.good(i));
  }
  // For matmul a boundary bug shows on square shapes too (17x17x17); failures on rectangular
  // shapes alone point at a wrong dimension instead.
  const auto example = ev.visible_bad([&](std::size_t i) {
    return ev.problem != problems::kind::matmul || is_square(ev.cases[i].tc.dims);
  });
  if (!aligned_case_seen || !example) {
    return std::nullopt;
  }
  return hint{hint_code::boundary_check,
              fmt::format("fails only where a size is not a multiple of 16 (e.g. {}), while every "
                          "size that is a multiple of 16 passes: check the boundaries. Threads "
                          "past the edge must not load or store, and tiles that hang over the "
                          "edge must be filled with zeros",
                          ev.example(*example))};
}

std::optional<hint> dimension_hint(const evidence& ev) {
  if (ev.problem != problems::kind::matmul) {
    return std::nullopt;
  }
  bool square_seen = false;
  for (std::size_t i = 0; i < ev.cases.size(); ++i) {
    if (!ev.ran(i)) {
      continue;
    }
    const bool square = is_square(ev.cases[i].tc.dims);
    if (square && !ev.good(i)) {
      return std::nullopt;
    }
    square_seen = square_seen || square;
  }
  const auto example = ev.visible_bad([](std::size_t) { return true; });
  if (!square_seen || !example) {
    return std::nullopt;
  }
  return hint{hint_code::wrong_dimension,
              fmt::format("wrong only on rectangular shapes (e.g. {} = j x k x l), right on every "
                          "square one: an index uses the wrong dimension (M is j x k, N is k x l, "
                          "P is j x l)",
                          ev.example(*example))};
}

std::optional<hint> poison_hint(const evidence& ev) {
  for (std::size_t i = 0; i < ev.cases.size(); ++i) {
    const auto& c = ev.outcomes[i].comparison;
    if (!ev.bad(i) || !c || c->poison_count == 0) {
      continue;
    }
    if (c->poison_count == c->element_count) {
      return hint{hint_code::poison_left,
                  "the output still holds the poison written before the call: the launcher did "
                  "not run the kernel, or the kernel wrote somewhere else (check the launch, the "
                  "grid size and the output pointer; results from an earlier call never count)"};
    }
    return hint{hint_code::poison_left,
                fmt::format("{} of {} output elements were never written: the grid does not cover "
                            "the whole output",
                            c->poison_count, c->element_count)};
  }
  return std::nullopt;
}

std::optional<hint> count_hint(const evidence& ev) {
  for (std::size_t i = 0; i < ev.cases.size(); ++i) {
    const auto& c = ev.outcomes[i].comparison;
    if (!ev.bad(i) || !c || !c->total_expected || !c->total_got || c->poison_count != 0) {
      continue;
    }
    if (*c->total_got < *c->total_expected) {
      return hint{hint_code::lost_updates,
                  fmt::format("the bins total {:.0f}, but n = {:.0f}: updates were lost. Every "
                              "increment of a shared bin needs atomicAdd, and a privatised "
                              "histogram needs a barrier before it merges",
                              *c->total_got, *c->total_expected)};
    }
    if (*c->total_got > *c->total_expected) {
      return hint{hint_code::wrong_result,
                  fmt::format("the bins total {:.0f}, more than n = {:.0f}: bins were not cleared "
                              "(they arrive holding garbage) or elements were counted twice",
                              *c->total_got, *c->total_expected)};
    }
  }
  return std::nullopt;
}

std::optional<hint> race_hint(const evidence& ev) {
  for (std::size_t i = 0; i < ev.cases.size(); ++i) {
    if (ev.outcomes[i].schedule_dependent) {
      return hint{hint_code::race,
                  "the result changed between two runs on the same inputs (in emulation, runs "
                  "use different thread orders): a race. Look for a missing __syncthreads() "
                  "between writing shared memory and reading it, or before overwriting it, and "
                  "for updates of shared values that are not atomic"};
    }
  }
  return std::nullopt;
}

std::optional<hint> precision_hint(const evidence& ev) {
  bool integer_seen = false;
  for (std::size_t i = 0; i < ev.cases.size(); ++i) {
    const auto& dist = ev.cases[i].tc.distribution;
    const bool exact_data = dist == "integer" || dist == "ones";
    if (exact_data && ev.ran(i) && !ev.good(i)) {
      return std::nullopt;
    }
    integer_seen = integer_seen || exact_data;
  }
  const auto example = ev.visible_bad([&](std::size_t i) {
    const auto& c = ev.outcomes[i].comparison;
    return c && c->max_rel_error < 1e-2 && c->nan_count == 0 && c->poison_count == 0;
  });
  if (!integer_seen || !example) {
    return std::nullopt;
  }
  return hint{hint_code::wrong_result,
              fmt::format("exact on integer-valued inputs but off by up to {:.1e} (relative) on "
                          "real-valued ones (e.g. {}): the arithmetic is less precise than float32 "
                          "(half or tf32?)",
                          ev.outcomes[*example].comparison->max_rel_error, ev.example(*example))};
}

std::optional<hint> nan_hint(const evidence& ev) {
  for (std::size_t i = 0; i < ev.cases.size(); ++i) {
    const auto& c = ev.outcomes[i].comparison;
    if (ev.bad(i) && c && c->nan_count > 0) {
      return hint{hint_code::wrong_result,
                  fmt::format("{} output elements are NaN or infinite: a read past the end of an "
                              "input (the words after each input read as NaN) or of shared "
                              "memory nobody wrote",
                              c->nan_count)};
    }
  }
  return std::nullopt;
}

} // namespace

bool all_multiples_of(problems::kind problem, const problems::shape& s, long m) {
  if (problem == problems::kind::matmul) {
    return s.j % m == 0 && s.k % m == 0 && s.l % m == 0;
  }
  return s.n % m == 0;
}

std::vector<hint> diagnose(problems::kind problem, const std::vector<graded_case>& cases,
                           const std::vector<case_outcome>& outcomes,
                           const std::vector<bool>& hidden) {
  const evidence ev{problem, cases, outcomes, hidden};
  std::vector<hint> hints;
  for (auto rule : {boundary_hint, dimension_hint, poison_hint, count_hint, race_hint,
                    precision_hint, nan_hint}) {
    if (auto h = rule(ev)) {
      hints.push_back(std::move(*h));
    }
  }
  return hints;
}

} // namespace cugrade::grader
