#include "harness/problems/matmul_problem.h"

#include "harness/core/error.h"
#include "harness/problems/support.h"
#include "harness/problems/tolerance.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace cugrade::problems {

namespace {

using launcher_fn = void(const float*, const float*, float*, int, int, int);

auto sizes(const shape& s) {
  return std::tuple{static_cast<std::size_t>(s.j), static_cast<std::size_t>(s.k),
                    static_cast<std::size_t>(s.l)};
}

/// row[0..l) = sum_kk M[i][kk] * N[kk][..] in i-k-j order: N streams row by row, the
/// accumulator row stays in cache, and every float product is exact in double.
void accumulate_row(const float* m_row, const float* n, std::size_t k, std::size_t l, double* row) {
  std::fill(row, row + l, 0.0);
  for (std::size_t kk = 0; kk < k; ++kk) {
    const double a = m_row[kk];
    const float* n_row = n + kk * l;
    for (std::size_t jj = 0; jj < l; ++jj) {
      row[jj] += a * static_cast<double>(n_row[jj]);
    }
  }
}

/// |x| elementwise, so the bound's sum_k |m||n| runs the reference's vectorised loop unchanged.
std::vector<float> absolute(std::span<const float> x) {
  std::vector<float> out(x.size());
  std::transform(x.begin(), x.end(), out.begin(), [](float v) { return std::fabs(v); });
  return out;
}

std::string tolerance_text(bool exact, double allowed) {
  return exact ? "0 (integer inputs compare exactly)"
               : fmt::format("{} (gamma_(k+1) * sum|m*n|)", format_number(allowed));
}

} // namespace

std::vector<std::string> matmul_problem::launchers() const {
  return {"matmul_naive", "matmul_tiled", "matmul_dynamic"};
}

std::string matmul_problem::launcher_parameters() const {
  return launcher_signature<launcher_fn>::parameters({"M", "N", "P", "j", "k", "l"});
}

std::vector<std::string> matmul_problem::distributions() const {
  return {"real", "integer"};
}

std::vector<shape> matmul_problem::edge_shapes() const {
  std::vector<shape> shapes;
  for (const long n : {1, 2, 7, 15, 16, 17, 31, 33, 63, 65, 127, 129, 255, 257}) {
    shapes.push_back({.j = n, .k = n, .l = n});
  }
  // Rectangular with all three sizes different (primes, so no tile width divides any of them),
  // k = 1 (no accumulation at all), and one larger case that spans many tiles in every direction.
  shapes.push_back({.j = 37, .k = 41, .l = 43});
  shapes.push_back({.j = 53, .k = 7, .l = 101});
  shapes.push_back({.j = 3, .k = 97, .l = 5});
  shapes.push_back({.j = 129, .k = 65, .l = 33});
  shapes.push_back({.j = 70, .k = 1, .l = 90});
  shapes.push_back({.j = 33, .k = 1, .l = 17});
  shapes.push_back({.j = 521, .k = 263, .l = 389});
  return shapes;
}

std::vector<case_template> matmul_problem::benchmark_cases() const {
  return {{.dims = {.j = 2048, .k = 2048, .l = 2048}, .distribution = "real"},
          {.dims = {.j = 4096, .k = 1024, .l = 2048}, .distribution = "real"}};
}

std::vector<buffer_spec> matmul_problem::inputs(const shape& s) const {
  const auto [j, k, l] = sizes(s);
  return {{"M", element_type::f32, j * k, k}, {"N", element_type::f32, k * l, l}};
}

buffer_spec matmul_problem::output(const shape& s) const {
  const auto [j, k, l] = sizes(s);
  return {"P", element_type::f32, j * l, l};
}

std::optional<std::vector<float_recipe>> matmul_problem::float_recipes(const test_case& c) const {
  require_case(*this, c);
  // "real": symmetric_unit; "integer": two values per 64 random bits, the low and high halves
  // each picking one of 9 integers.
  const auto fill =
      c.distribution == "real" ? float_fill::symmetric_unit : float_fill::nine_integers;
  std::vector<float_recipe> out;
  std::uint64_t index = 0;
  for (const auto& spec : inputs(c.dims)) {
    out.push_back({fill, derive_seed(c.seed, index++), spec.count});
  }
  return out;
}

std::vector<buffer> matmul_problem::generate(const test_case& c) const {
  const auto recipes = float_recipes(c);
  std::vector<buffer> out;
  for (const auto& recipe : *recipes) {
    buffer b = make_buffer(element_type::f32, recipe.count);
    fill_on_host(recipe, b.as<float>());
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<double> matmul_problem::reference(const test_case& c,
                                              const std::vector<buffer>& in) const {
  require_case(*this, c);
  require_inputs(*this, c, in);
  const auto [j, k, l] = sizes(c.dims);
  const float* m = in[0].as<float>().data();
  const float* n = in[1].as<float>().data();
  std::vector<double> p(j * l);
  for_parts(j, part_count(j, min_rows_per_part(k * l)),
            [&](std::size_t, std::size_t begin, std::size_t end) {
              for (std::size_t i = begin; i < end; ++i) {
                accumulate_row(m + i * k, n, k, l, p.data() + i * l);
              }
            });
  return p;
}

comparison matmul_problem::compare(const test_case& c, const std::vector<buffer>& in,
                                   const std::vector<double>& expected,
                                   const buffer& actual) const {
  require_case(*this, c);
  require_inputs(*this, c, in);
  require_output(*this, c, expected, actual);
  const auto [j, k, l] = sizes(c.dims);
  const auto abs_m = absolute(in[0].as<float>());
  const auto abs_n = absolute(in[1].as<float>());
  const float* got = actual.as<float>().data();
  const bool integer = c.distribution == "integer";
  const std::size_t parts = part_count(j, min_rows_per_part(k * l));
  std::vector<tally> tallies(parts);
  for_parts(j, parts, [&](std::size_t part, std::size_t begin, std::size_t end) {
    std::vector<double> abs_sum(l);
    for (std::size_t i = begin; i < end; ++i) {
      accumulate_row(abs_m.data() + i * k, abs_n.data(), k, l, abs_sum.data());
      for (std::size_t jj = 0; jj < l; ++jj) {
        const std::size_t e = i * l + jj;
        const double allowed = f32_sum_tolerance(static_cast<double>(k + 1), abs_sum[jj], integer);
        tallies[part].check_f32(e, expected[e], got[e], allowed);
      }
    }
  });
  for (std::size_t p = 1; p < parts; ++p) {
    tallies[0].merge(tallies[p]);
  }
  comparison result = tallies[0].finish(j * l);
  if (result.first) {
    const auto& f = *result.first;
    result.note = fmt::format(
        "{}; first at P[{}][{}]: expected {}, got {}, allowed error {}",
        mismatch_summary(result, "elements"), f.index / l, f.index % l, format_number(f.expected),
        format_number(f.got),
        tolerance_text(integer && tallies[0].first_allowed() == 0, tallies[0].first_allowed()));
  }
  return result;
}

// Measured 2.1e8 (dynamic) to 3.7e8 (naive) multiply-adds per CPU second with the reference
// kernels at 512x512x512 (one worker; docs/emulation.md, "Speed"); a quarter of the slowest,
// since a student's naive kernel on shapes past the caches misses on every column of N.
emulation_pace matmul_problem::emulated_pace() const {
  return {.unit = "multiply-adds", .flops_per_unit = 2, .units_per_second = 5e7};
}

work_counts matmul_problem::work(const shape& s) const {
  const double j = static_cast<double>(s.j), k = static_cast<double>(s.k),
               l = static_cast<double>(s.l);
  return {.flops = 2 * j * k * l, .bytes = 4 * (j * k + k * l + j * l)};
}

// The references' global traffic (reference/matmul.cu), every access in whole sectors:
// - naive, 16x16 blocks: a warp is two rows of 16 threads; per multiply-add step it reads one
//   sector of M per row (two) and the 16 floats of N both rows share (two), 4 bytes per
//   element of P per step, then stores P once: 4jkl + 4jl;
// - tiled, T x T tiles: each of the ceil(l/T) block columns reads all of M once, each of the
//   ceil(j/T) block rows all of N, and P is stored once: (2N/T + 1) / 3 of the minimum at N^3.
//   matmul_dynamic's launcher picks T = 32 on the course's GPUs (and the emulated device): two
//   32x32 float tiles are 8 KiB, 1024 threads a block.
std::optional<technique_traffic> matmul_problem::expected_traffic(std::string_view launcher,
                                                                  const shape& s) const {
  const double j = static_cast<double>(s.j), k = static_cast<double>(s.k),
               l = static_cast<double>(s.l);
  const double minimum = work(s).bytes;
  if (minimum <= 0) {
    return std::nullopt;
  }
  const auto tiled = [&](long tile) {
    const double block_rows = std::ceil(j / static_cast<double>(tile));
    const double block_columns = std::ceil(l / static_cast<double>(tile));
    return technique_traffic{
        4 * (j * k * block_columns + k * l * block_rows + j * l) / minimum,
        fmt::format("{0}x{0} tiles", tile),
        "data loaded into the tiles is not reused (check that the phase loop loads each tile "
        "once and the inner product reads only the tiles)"};
  };
  if (launcher == "matmul_naive") {
    return technique_traffic{4 * (j * k * l + j * l) / minimum,
                             "threads computing one element of P each, in 16x16 blocks,",
                             "sum each element of P in a register and store it once, reading "
                             "each element of M and N once per multiply-add"};
  }
  if (launcher == "matmul_tiled") {
    return tiled(16);
  }
  if (launcher == "matmul_dynamic") {
    return tiled(32);
  }
  return std::nullopt;
}

void matmul_problem::invoke(void* launcher, const std::vector<void*>& device_inputs,
                            void* device_output, const shape& s) const {
  require_pointers(*this, s, device_inputs, device_output);
  if (s.j > INT_MAX || s.k > INT_MAX || s.l > INT_MAX) {
    CUGRADE_THROW(
        fmt::format("matmul shape {} does not fit the launcher's int sizes", describe(id(), s)));
  }
  as_launcher<launcher_fn>(launcher)(static_cast<const float*>(device_inputs[0]),
                                     static_cast<const float*>(device_inputs[1]),
                                     static_cast<float*>(device_output), static_cast<int>(s.j),
                                     static_cast<int>(s.k), static_cast<int>(s.l));
}

std::vector<shape_param> matmul_problem::shape_params() const {
  // The launchers take int sizes.
  constexpr long largest = std::numeric_limits<int>::max();
  return {{.name = "j", .field = &shape::j, .largest = largest, .example = 37},
          {.name = "k", .field = &shape::k, .largest = largest, .example = 41},
          {.name = "l", .field = &shape::l, .largest = largest, .example = 43}};
}

std::string matmul_problem::shape_words() const {
  return "shapes have j, k and l: M is j x k, N is k x l, P is j x l";
}

// No size is a multiple of a tile width, so boundary mistakes show.
shape matmul_problem::profile_shape() const {
  return {.j = 128, .k = 128, .l = 128};
}

std::vector<shape> matmul_problem::sanitizer_shapes() const {
  return {{.j = 37, .k = 41, .l = 43}, {.j = 129, .k = 65, .l = 33}};
}

std::string matmul_problem::advice(advice_topic topic) const {
  switch (topic) {
  case advice_topic::boundary:
    return "threads past the edge of P must not store, and a tile that hangs over the edge of M "
           "or N must be filled with zeros instead of loaded";
  case advice_topic::race:
    return "a __syncthreads() is missing after loading a tile (before it is used) or before "
           "the next phase overwrites it";
  case advice_topic::size_limit:
    return "a grid or a loop that does not grow with the shape (a fixed number of blocks or "
           "phases), or an int index that overflows: size the grid and the phase loop from j, k "
           "and l";
  case advice_topic::barrier:
    break;
  }
  return "every thread of the block must reach both __syncthreads() of each phase, including "
         "threads whose element lies outside P: guard the loads and the store, never the "
         "barriers";
}

} // namespace cugrade::problems
