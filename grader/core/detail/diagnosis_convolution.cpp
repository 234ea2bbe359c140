// Convolution's part of diagnosis (diagnosis_kinds.h), from the values of its windowed output:
// halo cells never loaded (its own code, halo_not_loaded). A tiled
// kernel that loads only its own output tile (or takes its neighbours' elements as 0) is wrong
// exactly where an element's window reaches into another tile of the image: within r of an
// edge between two tiles. Reads the kept output values (outputs of at most
// kept_output_elements), and the shape's height (j), width (l) and mask radius (k).
#include "grader/core/detail/diagnosis_kinds.h"

#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

using reports::hint_code;

const hint_code halo_not_loaded{"halo_not_loaded", "the halo cells around a tile are not loaded"};

// Whether the window of element (row, col), clipped to the image, reaches into another tile.
bool needs_halo(const problems::shape& s, long width, long row, long col) {
  const auto crosses = [&](long at, long size) {
    const long first = std::max(0L, at - s.k), last = std::min(size - 1, at + s.k);
    return first / width != at / width || last / width != at / width;
  };
  return crosses(row, s.j) || crosses(col, s.l);
}

struct halo_match {
  long wrong = 0;      ///< wrong elements, every one within the halo
  long halo_cells = 0; ///< elements whose window reaches another tile
};

// The match of a failing output with tiles of `width` x `width` whose halos were never loaded.
std::optional<halo_match> halo_missing(const problems::shape& s, long width,
                                       const std::vector<double>& got,
                                       const std::vector<double>& expected) {
  halo_match m;
  for (long row = 0; row < s.j; ++row) {
    for (long col = 0; col < s.l; ++col) {
      const auto e = static_cast<std::size_t>(row * s.l + col);
      const bool halo = needs_halo(s, width, row, col);
      const bool wrong = !close_values(got[e], expected[e]);
      if (wrong && !halo) {
        return std::nullopt;
      }
      m.halo_cells += halo ? 1 : 0;
      m.wrong += wrong ? 1 : 0;
    }
  }
  // Most of the halo wrong: an element may come out right by chance (a neighbour that is 0).
  if (m.wrong == 0 || 2 * m.wrong < m.halo_cells) {
    return std::nullopt;
  }
  return m;
}

// The tile widths course kernels use: the output tiles of 8, 16 and 32 threads, and those of a
// block the size of the input tile (16 or 32 threads less a 3x3 to 7x7 mask's halo).
constexpr long tile_widths[] = {16, 32, 8, 14, 12, 10, 30, 28, 26};

std::optional<candidate> halo_missing_pattern(const evidence& ev) {
  std::size_t failing = 0, matched = 0;
  std::optional<std::pair<std::size_t, long>> example; // case, tile width
  for (std::size_t i = 0; i < ev.size(); ++i) {
    const auto& v = ev.outcome(i).evidence;
    if (!ev.failed_without_fault(i) || v.got.empty() || v.got.size() != v.expected.size()) {
      continue;
    }
    ++failing;
    for (const long width : tile_widths) {
      if (halo_missing(ev.dims(i), width, v.got, v.expected)) {
        ++matched;
        example = example.value_or(std::pair{i, width});
        break;
      }
    }
  }
  if (!example) {
    return std::nullopt;
  }
  const auto [i, width] = *example;
  const long r = ev.dims(i).k;
  candidate c{halo_not_loaded,
              specificity::cause,
              fmt::format("on {}, exactly the elements within r = {} of an edge between two "
                          "{}x{} tiles are wrong, and every other element is right: the halo "
                          "cells are not loaded. A block's input tile is its output tile plus r "
                          "elements on every side, which the neighbouring tiles also load: load "
                          "all (tile width + 2r)^2 of them into shared memory (0 only for ghost "
                          "cells outside the image) before the __syncthreads()",
                          ev.name(i), r, width, width),
              "",
              {},
              {}};
  c.support.push_back(fmt::format("{} of {} failing cases are wrong only within r of the "
                                  "edges between {}x{} tiles",
                                  matched, failing, width, width));
  // A missing halo is harmless in an image of one tile, and wrong in any larger one, outputs
  // too large to keep their values included.
  const auto one_tile = [&](std::size_t k) {
    return ev.dims(k).j <= width && ev.dims(k).l <= width;
  };
  c.failures_explained = matched + ev.count_bad([&](std::size_t k) {
    return !one_tile(k) && ev.failed_without_fault(k) && ev.outcome(k).evidence.got.empty();
  });
  c.passes_predicted = ev.count_good(one_tile);
  if (2 * matched < failing) {
    c.contradictions.push_back("most failing outputs are wrong outside the halo of any tile");
  }
  return c;
}

} // namespace

kind_diagnosis convolution_diagnosis() {
  return {.kind = "convolution",
          .rules = {{rule_place::after_faults, halo_missing_pattern}},
          .codes = {halo_not_loaded}};
}

} // namespace cugrade::grader::detail
