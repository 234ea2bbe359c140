// Matmul's part of diagnosis (diagnosis_kinds.h): its own mistakes, an index using the wrong
// dimension (or one Width for every dimension) and wrong tile arithmetic, each with its own hint
// code; and its words for the shared rules: sizes as multiples of the tile width, matrices by
// their largest dimension, boundary mistakes seen on square shapes, and values that change
// between runs at the edges only as tile elements nobody wrote.
#include "grader/core/detail/diagnosis_kinds.h"

#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

const reports::hint_code wrong_dimension{"wrong_dimension",
                                         "a dimension is used in place of another", true};
const reports::hint_code tile_arithmetic{"tile_arithmetic", "tile indices are computed wrongly"};

bool is_square(const problems::shape& s) {
  return s.j == s.k && s.k == s.l;
}

bool tiled_kernel(const evidence& ev) {
  return ev.kernel().find("naive") == std::string::npos;
}

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
                       alignment_unit, ev.name(example), dims);
  }
  return fmt::format("wrong only on rectangular shapes (e.g. {} = j x k x l), right on every "
                     "square one: an index uses the wrong dimension, or the kernel assumes square "
                     "matrices with one Width for every dimension. {}",
                     ev.name(example), dims);
}

std::optional<candidate> dimension_pattern(const evidence& ev) {
  const auto square = ev.first([&](std::size_t i) { return ev.ran(i) && is_square(ev.dims(i)); });
  const auto example = ev.visible_bad([&](std::size_t i) { return !is_square(ev.dims(i)); });
  if (!square || !example) {
    return std::nullopt;
  }
  const bool tile_too = square_and_tile_only(ev);
  const auto aligned_rectangle =
      ev.visible_bad([&](std::size_t i) { return !is_square(ev.dims(i)) && aligned(ev, i); });
  const std::size_t shown = tile_too && aligned_rectangle ? *aligned_rectangle : *example;
  candidate c{wrong_dimension,
              specificity::cause,
              dimension_words(ev, shown, tile_too),
              ev.memory_fault_location(),
              {},
              {}};
  // With the tile assumption too, the squares off the tile are explained as well.
  const auto explained = [&](std::size_t i) {
    return !is_square(ev.dims(i)) || (tile_too && !aligned(ev, i));
  };
  c.support.push_back(tile_too
                          ? fmt::format("{} fails; every square multiple of {} passes",
                                        ev.name(shown), alignment_unit)
                          : fmt::format("{} fails; every square shape passes", ev.name(shown)));
  c.failures_explained = ev.count_bad(explained);
  c.passes_predicted = ev.count_good([&](std::size_t i) { return !explained(i); });
  if (const auto s = ev.first([&](std::size_t i) { return ev.bad(i) && !explained(i); })) {
    c.contradictions.push_back(fmt::format("the square shape {} fails too", ev.name(*s)));
  }
  return c;
}

std::optional<candidate> tile_arithmetic_pattern(const evidence& ev) {
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
  candidate c{tile_arithmetic,
              specificity::pattern,
              fmt::format("wrong on every kind of shape, exact multiples of the tile included "
                          "(e.g. {}): the arithmetic or indexing {}",
                          ev.name(*example), where),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("{} is square and a multiple of {}, and fails", ev.name(*example),
                                  alignment_unit));
  // Wrong arithmetic is wrong on every shape: it accounts for every failure without a fault.
  c.failures_explained = ev.count([&](std::size_t i) { return ev.failed_without_fault(i); });
  if (const auto s = ev.first_schedule_dependent()) {
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

std::string matrix_size_words(const evidence& ev, std::size_t i) {
  return fmt::format("{} (largest dimension {})", ev.name(i), grouped(ev.extent(i)));
}

} // namespace

kind_diagnosis matmul_diagnosis() {
  return {.kind = "matmul",
          .rules = {{rule_place::after_early_exits, dimension_pattern},
                    {rule_place::after_precision, tile_arithmetic_pattern}},
          .codes = {wrong_dimension, tile_arithmetic},
          .alignment_words = fmt::format("a multiple of the tile width {}", alignment_unit),
          .shows_boundary_alone = is_square,
          .changes_are_unwritten_edges = boundary_shaped,
          .size_words = matrix_size_words};
}

} // namespace cugrade::grader::detail
