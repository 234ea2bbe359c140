// Hints from the pattern of which cases fail: sizes that are not multiples of the tile or block,
// rectangular shapes, data with more contention, runs that disagree, precision.
#include "grader/core/detail/diagnosis_evidence.h"

#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

using reports::hint_code;

constexpr long tile = 16;

bool aligned(const evidence& ev, std::size_t i) {
  return all_multiples_of(ev.problem(), ev.dims(i), tile);
}

bool is_square(const problems::shape& s) {
  return s.j == s.k && s.k == s.l;
}

bool is_matmul(const evidence& ev) {
  return problems::get(ev.problem()).traits().tiled_matrix;
}

bool tiled_kernel(const evidence& ev) {
  return ev.kernel().find("naive") == std::string::npos;
}

std::optional<std::size_t> schedule_dependent_case(const evidence& ev) {
  return ev.first([&](std::size_t i) { return ev.outcome(i).schedule_dependent; });
}

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
  return is_matmul(ev) ? fmt::format("a multiple of the tile width {}", tile)
                       : fmt::format("a multiple of {}", tile);
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
  // For matmul a boundary bug shows on square shapes too (17x17x17).
  const auto example = ev.visible_bad(
      [&](std::size_t i) { return !aligned(ev, i) && (!is_matmul(ev) || is_square(ev.dims(i))); });
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
  // Outputs that change between runs at the edges only are reads of tile elements nobody wrote
  // there (a tile hanging over the edge left unfilled); anywhere else they are a race.
  if (const auto s = schedule_dependent_case(ev); s && !(is_matmul(ev) && boundary_shaped(ev))) {
    c.contradictions.push_back(fmt::format("the result on {} changed between runs", ev.name(*s)));
  }
  add_distribution_contradiction(ev, c);
  if (const auto p = ev.first([&](std::size_t i) {
        const auto& cmp = ev.outcome(i).comparison;
        return ev.bad(i) && cmp && cmp->poison_count > 0;
      });
      p && !bins_not_cleared(ev)) {
    c.contradictions.push_back(fmt::format("{} left elements unwritten: the grid is too small, "
                                           "whatever the bounds checks",
                                           ev.name(*p)));
  }
  return c;
}

namespace {

// The lecture's first tiled kernel assumes square matrices whose size is a multiple of the tile:
// squares off the tile fail (its boundary), and so does a rectangle that is a multiple of the
// tile (its single Width), which no boundary check explains; an aligned square passes. A shape
// that is a multiple of the tile and changed between runs, or a shared-memory hazard the
// emulator's detector or racecheck named on any case, points at a race instead (a missing barrier
// shows on every multi-phase shape, the aligned rectangle included; the detector samples blocks,
// so an aligned square may pass).
bool square_and_tile_only(const evidence& ev) {
  const auto square = [&](std::size_t i) { return is_square(ev.dims(i)); };
  const auto racy = [&](std::size_t i) { return ev.outcome(i).schedule_dependent; };
  if (ev.any(
          [&](std::size_t i) { return ev.outcome(i).error_kind == reports::fault_kind::race; })) {
    return false;
  }
  return ev.any([&](std::size_t i) { return square(i) && aligned(ev, i) && ev.good(i); }) &&
         ev.any([&](std::size_t i) { return square(i) && !aligned(ev, i) && ev.bad(i); }) &&
         ev.any([&](std::size_t i) { return !square(i) && aligned(ev, i) && ev.bad(i); }) &&
         !ev.any([&](std::size_t i) { return square(i) && aligned(ev, i) && ev.bad(i); }) &&
         !ev.any([&](std::size_t i) { return aligned(ev, i) && racy(i); });
}

std::string dimension_words(const evidence& ev, std::size_t example, bool tile_too) {
  const std::string dims = "M is j x k, N is k x l, P is j x l; a row of M is k long, a row of N "
                           "and of P is l long";
  if (tile_too) {
    return fmt::format("right only on square shapes that are a multiple of the tile width {} "
                       "(e.g. {} fails, a multiple of the tile but not square): the kernel "
                       "assumes one Width for every dimension, a multiple of the tile, as the "
                       "lecture's first tiled kernel does. Use j, k and l for the three "
                       "dimensions ({}) and bound every load and store",
                       tile, ev.name(example), dims);
  }
  return fmt::format("wrong only on rectangular shapes (e.g. {} = j x k x l), right on every "
                     "square one: an index uses the wrong dimension, or the kernel assumes square "
                     "matrices with one Width for every dimension. {}",
                     ev.name(example), dims);
}

} // namespace

std::optional<candidate> dimension_pattern(const evidence& ev) {
  if (!is_matmul(ev)) {
    return std::nullopt;
  }
  const auto square = ev.first([&](std::size_t i) { return ev.ran(i) && is_square(ev.dims(i)); });
  const auto example = ev.visible_bad([&](std::size_t i) { return !is_square(ev.dims(i)); });
  if (!square || !example) {
    return std::nullopt;
  }
  const bool tile_too = square_and_tile_only(ev);
  const auto aligned_rectangle =
      ev.visible_bad([&](std::size_t i) { return !is_square(ev.dims(i)) && aligned(ev, i); });
  const std::size_t shown = tile_too && aligned_rectangle ? *aligned_rectangle : *example;
  candidate c{hint_code::wrong_dimension,
              specificity::cause,
              dimension_words(ev, shown, tile_too),
              ev.memory_fault_location(),
              {},
              {}};
  // With the tile assumption too, the squares off the tile are explained as well.
  const auto explained = [&](std::size_t i) {
    return !is_square(ev.dims(i)) || (tile_too && !aligned(ev, i));
  };
  c.support.push_back(
      tile_too ? fmt::format("{} fails; every square multiple of {} passes", ev.name(shown), tile)
               : fmt::format("{} fails; every square shape passes", ev.name(shown)));
  c.failures_explained = ev.count_bad(explained);
  c.passes_predicted = ev.count_good([&](std::size_t i) { return !explained(i); });
  if (const auto s = ev.first([&](std::size_t i) { return ev.bad(i) && !explained(i); })) {
    c.contradictions.push_back(fmt::format("the square shape {} fails too", ev.name(*s)));
  }
  return c;
}

std::optional<candidate> tile_arithmetic_pattern(const evidence& ev) {
  if (!is_matmul(ev)) {
    return std::nullopt;
  }
  const auto example = ev.first([&](std::size_t i) {
    return aligned(ev, i) && is_square(ev.dims(i)) && ev.failed_without_fault(i);
  });
  if (!example) {
    return std::nullopt;
  }
  const std::string where =
      tiled_kernel(ev) ? "inside the tile loop: each step multiplies Mds[ty][e] by Nds[e][tx] "
                         "(e over the tile), and phase ph loads M[row*k + ph*TILE + tx] and "
                         "N[(ph*TILE + ty)*l + col]"
                       : "of the inner product: P[row*l + col] is the sum over e of "
                         "M[row*k + e] * N[e*l + col]";
  candidate c{hint_code::tile_arithmetic,
              specificity::pattern,
              fmt::format("wrong on every kind of shape, exact multiples of the tile included "
                          "(e.g. {}): the arithmetic or indexing {}",
                          ev.name(*example), where),
              "",
              {},
              {}};
  c.support.push_back(
      fmt::format("{} is square and a multiple of {}, and fails", ev.name(*example), tile));
  // Wrong arithmetic is wrong on every shape: it accounts for every failure without a fault.
  c.failures_explained = ev.count([&](std::size_t i) { return ev.failed_without_fault(i); });
  if (const auto s = schedule_dependent_case(ev)) {
    c.contradictions.push_back(fmt::format("the result on {} changed between runs", ev.name(*s)));
  }
  if (const auto f = ev.first([&](std::size_t i) {
        const auto& cmp = ev.outcome(i).comparison;
        return ev.outcome(i).error_kind || (cmp && (cmp->poison_count > 0 || cmp->nan_count > 0));
      })) {
    c.contradictions.push_back(
        fmt::format("{} faulted or left unwritten or NaN elements", ev.name(*f)));
  }
  const auto integer_data = [&](std::size_t i) { return ev.at(i).tc.distribution == "integer"; };
  if (ev.any(integer_data) &&
      !ev.any([&](std::size_t i) { return integer_data(i) && ev.bad(i); })) {
    c.contradictions.push_back("every case with integer inputs passes: the indexing is right, "
                               "only the precision is not");
  }
  return c;
}

std::optional<candidate> race_pattern(const evidence& ev) {
  const auto i = schedule_dependent_case(ev);
  if (!i) {
    return std::nullopt;
  }
  const std::string advice = problems::get(ev.problem()).advice(problems::advice_topic::race);
  candidate c{hint_code::race,
              specificity::pattern,
              "the result changed between two runs on the same inputs (in emulation, runs use "
              "different thread orders): a race. " +
                  advice,
              "",
              {},
              {}};
  c.support.push_back(fmt::format("two runs of {} gave different outputs", ev.name(*i)));
  c.failures_explained =
      ev.count_bad([&](std::size_t k) { return ev.outcome(k).schedule_dependent; });
  if (is_matmul(ev) && boundary_shaped(ev)) {
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
  if (!none && bins_not_cleared(ev)) {
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
  if (auto nc = not_cleared_result(ev); nc && nc->contradictions.empty()) {
    c.contradictions.push_back("the result is NaN on every size: it was never cleared");
  }
  return c;
}

} // namespace cugrade::grader::detail
