#include "harness/problems/convolution_problem.h"

#include "harness/core/error.h"
#include "harness/problems/support.h"
#include "harness/problems/tolerance.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <set>

namespace cugrade::problems {

namespace {

using launcher_fn = void(const float*, const float*, float*, int, int, int);

// The shape's fields: height is j, width is l, the mask radius k (shape_params()).
struct image_shape {
  long height;
  long width;
  long r;
  [[nodiscard]] long mask_width() const { return 2 * r + 1; }
};

image_shape image_of(const shape& s) {
  return {s.j, s.l, s.k};
}

std::string tolerance_text(bool exact, double allowed) {
  return exact ? "0 (integer inputs compare exactly)"
               : fmt::format("{} (gamma_((2r+1)^2+1) * sum|F*N| over the window)",
                             format_number(allowed));
}

// P[i][j] and sum|F N| over its window, in double (every float product is exact in double).
struct window_sums {
  double value = 0;
  double abs_value = 0;
};

window_sums convolve_at(const image_shape& im, const float* n, const float* f, long i, long j) {
  window_sums s;
  for (long a = 0; a < im.mask_width(); ++a) {
    const long row = i - im.r + a;
    if (row < 0 || row >= im.height) {
      continue; // ghost cells count as 0
    }
    for (long b = 0; b < im.mask_width(); ++b) {
      const long col = j - im.r + b;
      if (col < 0 || col >= im.width) {
        continue;
      }
      const double product = static_cast<double>(f[a * im.mask_width() + b]) *
                             static_cast<double>(n[row * im.width + col]);
      s.value += product;
      s.abs_value += std::fabs(product);
    }
  }
  return s;
}

// The warp requests of the reference kernels (reference/convolution.cu) as the emulator's warp
// profiler counts them (harness/emu/src/warp_profile.h): a warp is 32 consecutive threads (two
// rows of a 16 x 16 block); between two barriers the k-th accesses of its lanes that come from
// one source line form one request, costing the distinct 32-byte sectors they touch. Where lanes
// skip a load (a ghost cell), their later accesses pair with other lanes' earlier ones, as they
// do there. Buffers start on a 32-byte boundary (cudaMalloc's are 256-byte aligned).
constexpr long block_width = 16;
constexpr long sector_bytes = 32;

// One access of a lane: the source line it comes from (a site of the kernel) and, for a global
// access, its buffer's number and byte offset; shared-memory accesses take their turn but cost
// no global traffic.
struct access {
  int site = 0;
  int buffer = -1; ///< -1: not global memory
  long offset = 0;
};
using lane_program = std::vector<std::vector<access>>; // per lane of one warp

double warp_sectors(const lane_program& lanes) {
  std::size_t longest = 0;
  for (const auto& l : lanes) {
    longest = std::max(longest, l.size());
  }
  double sectors = 0;
  std::set<std::pair<int, std::pair<int, long>>> touched; // site, buffer, sector
  for (std::size_t k = 0; k < longest; ++k) {
    touched.clear();
    for (const auto& l : lanes) {
      if (k < l.size() && l[k].buffer >= 0) {
        touched.insert({l[k].site, {l[k].buffer, l[k].offset / sector_bytes}});
      }
    }
    sectors += static_cast<double>(touched.size());
  }
  return sectors;
}

// The global bytes of every warp of every 16 x 16 block, each lane's accesses from
// program(lane accesses, row, col, block row, block column, ty, tx).
template <class Program> double kernel_bytes(const image_shape& im, Program program) {
  const long block_rows = (im.height + block_width - 1) / block_width;
  const long block_cols = (im.width + block_width - 1) / block_width;
  lane_program lanes(32);
  double sectors = 0;
  for (long by = 0; by < block_rows; ++by) {
    for (long bx = 0; bx < block_cols; ++bx) {
      for (long warp = 0; warp < block_width / 2; ++warp) {
        for (long lane = 0; lane < 32; ++lane) {
          lanes[lane].clear();
          program(lanes[lane], by, bx, 2 * warp + lane / block_width, lane % block_width);
        }
        sectors += warp_sectors(lanes);
      }
    }
  }
  return sectors * sector_bytes;
}

enum buffer_number { image_n = 0, mask_f = 1, output_p = 2 };

bool inside(const image_shape& im, long row, long col) {
  return row >= 0 && row < im.height && col >= 0 && col < im.width;
}

// The naive kernel: for each tap inside the image a load of N, then one of F (lines of their
// own), then the store of P.
double naive_bytes(const image_shape& im) {
  const long w = im.mask_width();
  return kernel_bytes(im, [&](std::vector<access>& a, long by, long bx, long ty, long tx) {
    const long row = by * block_width + ty, col = bx * block_width + tx;
    if (row >= im.height || col >= im.width) {
      return;
    }
    for (long i = 0; i < w; ++i) {
      for (long j = 0; j < w; ++j) {
        const long in_row = row - im.r + i, in_col = col - im.r + j;
        if (inside(im, in_row, in_col)) {
          a.push_back({0, image_n, 4 * (in_row * im.width + in_col)});
          a.push_back({1, mask_f, 4 * (i * w + j)});
        }
      }
    }
    a.push_back({2, output_p, 4 * (row * im.width + col)});
  });
}

// The tiled kernel: the (16 + 2r)^2 input tile in steps of 16 rows and 16 columns, each element
// a load of N (not for a ghost cell) and a store to shared memory; after the barrier, shared
// loads and the __constant__ mask (neither is global), then the store of P.
double tiled_bytes(const image_shape& im) {
  const long tile = block_width + 2 * im.r;
  const double loads =
      kernel_bytes(im, [&](std::vector<access>& a, long by, long bx, long ty, long tx) {
        for (long y = ty; y < tile; y += block_width) {
          for (long x = tx; x < tile; x += block_width) {
            const long in_row = by * block_width - im.r + y, in_col = bx * block_width - im.r + x;
            if (inside(im, in_row, in_col)) {
              a.push_back({0, image_n, 4 * (in_row * im.width + in_col)});
            }
            a.push_back({1});
          }
        }
      });
  const double stores =
      kernel_bytes(im, [&](std::vector<access>& a, long by, long bx, long ty, long tx) {
        const long row = by * block_width + ty, col = bx * block_width + tx;
        if (row < im.height && col < im.width) {
          a.push_back({2, output_p, 4 * (row * im.width + col)});
        }
      });
  return loads + stores;
}

} // namespace

std::vector<std::string> convolution_problem::launchers() const {
  return {"convolution_naive", "convolution_tiled"};
}

std::string convolution_problem::launcher_parameters() const {
  return launcher_signature<launcher_fn>::parameters({"N", "F", "P", "height", "width", "r"});
}

std::vector<std::string> convolution_problem::distributions() const {
  return {"real", "integer"};
}

std::vector<shape_param> convolution_problem::shape_params() const {
  constexpr long largest = INT_MAX; // the launchers take int sizes
  return {{.name = "height", .field = &shape::j, .largest = largest, .example = 37},
          {.name = "width", .field = &shape::l, .largest = largest, .example = 41},
          // A mask of at most 7 x 7 floats: what a __constant__ array declared for the largest
          // radius holds. Not a size tiles cover (all_multiples_of skips it).
          {.name = "r", .field = &shape::k, .largest = 3, .example = 2, .tiled = false}};
}

std::string convolution_problem::shape_words() const {
  return "shapes have height and width (N and P are height x width) and r, the mask radius "
         "(F is (2r+1) x (2r+1), r from 1 to 3)";
}

// Every radius on sizes around the 16 x 16 tiles: an image smaller than the mask (1 x 1 with
// r = 3: every neighbour a ghost cell), single rows and columns, primes, and multiples of 16
// (so a boundary mistake shows as failures off the tile only).
std::vector<shape> convolution_problem::edge_shapes() const {
  std::vector<shape> shapes;
  const auto add = [&](long height, long width, long r) {
    shapes.push_back({.j = height, .k = r, .l = width});
  };
  add(1, 1, 1);
  add(1, 1, 3);
  add(2, 3, 1);
  add(7, 5, 2);
  add(15, 17, 1);
  add(16, 16, 1);
  add(16, 16, 3);
  add(17, 17, 2);
  add(31, 33, 3);
  add(32, 48, 2);
  add(48, 32, 1);
  add(33, 31, 1);
  add(1, 100, 2);
  add(100, 1, 3);
  add(64, 64, 3);
  add(65, 63, 2);
  add(127, 129, 1);
  add(3, 97, 3);
  return shapes;
}

// 8192 x 8192 floats (256 MiB in, 256 MiB out) with a 5 x 5 mask: about 0.15 ms of memory
// traffic on an H100, long enough that a launcher's fixed costs stay below 1%.
std::vector<case_template> convolution_problem::benchmark_cases() const {
  return {{.dims = {.j = 8192, .k = 2, .l = 8192}, .distribution = "real"}};
}

// Multiples of the 16 x 16 tiles, so every warp is full; a 5 x 5 mask.
shape convolution_problem::profile_shape() const {
  return {.j = 128, .k = 2, .l = 128};
}

std::vector<shape> convolution_problem::sanitizer_shapes() const {
  return {{.j = 37, .k = 2, .l = 41}, {.j = 17, .k = 3, .l = 33}};
}

std::string convolution_problem::advice(advice_topic topic) const {
  switch (topic) {
  case advice_topic::boundary:
    return "an input element outside the image (a ghost cell) counts as 0 and must never be "
           "read: check row and column against 0 and height or width before loading N, and "
           "threads whose output lies outside P must not store";
  case advice_topic::race:
    return "a __syncthreads() is missing between loading the input tile (with its halo) into "
           "shared memory and computing from it";
  case advice_topic::size_limit:
    return fixed_work_advice();
  case advice_topic::barrier:
    break;
  }
  return "every thread of the block must reach the __syncthreads() after the tile is loaded, "
         "including threads whose output lies outside P or that only load halo cells: guard the "
         "computation and the store, never the barrier";
}

std::vector<buffer_spec> convolution_problem::inputs(const shape& s) const {
  const auto im = image_of(s);
  const auto w = static_cast<std::size_t>(im.mask_width());
  return {{"N", element_type::f32, static_cast<std::size_t>(im.height * im.width),
           static_cast<std::size_t>(im.width)},
          {"F", element_type::f32, w * w, w}};
}

buffer_spec convolution_problem::output(const shape& s) const {
  const auto im = image_of(s);
  return {"P", element_type::f32, static_cast<std::size_t>(im.height * im.width),
          static_cast<std::size_t>(im.width)};
}

// matmul's fills (float_fill.h), made on the host: the inputs go up from there. (They are not
// offered as float_recipes: a benchmark image is uploaded in well under a second.)
std::vector<buffer> convolution_problem::generate(const test_case& c) const {
  require_case(*this, c);
  const auto fill =
      c.distribution == "real" ? float_fill::symmetric_unit : float_fill::nine_integers;
  std::vector<buffer> out;
  std::uint64_t index = 0;
  for (const auto& spec : inputs(c.dims)) {
    const float_recipe recipe{fill, derive_seed(c.seed, index++), spec.count};
    buffer b = make_buffer(element_type::f32, recipe.count);
    fill_on_host(recipe, b.as<float>());
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<double> convolution_problem::reference(const test_case& c,
                                                   const std::vector<buffer>& in) const {
  require_case(*this, c);
  require_inputs(*this, c, in);
  const auto im = image_of(c.dims);
  const float* n = in[0].as<float>().data();
  const float* f = in[1].as<float>().data();
  const auto rows = static_cast<std::size_t>(im.height);
  const auto width = static_cast<std::size_t>(im.width);
  const auto taps = static_cast<std::size_t>(im.mask_width() * im.mask_width());
  std::vector<double> p(rows * width);
  for_parts(rows, part_count(rows, min_rows_per_part(width * taps)),
            [&](std::size_t, std::size_t begin, std::size_t end) {
              for (std::size_t i = begin; i < end; ++i) {
                for (std::size_t j = 0; j < width; ++j) {
                  p[i * width + j] =
                      convolve_at(im, n, f, static_cast<long>(i), static_cast<long>(j)).value;
                }
              }
            });
  return p;
}

comparison convolution_problem::compare(const test_case& c, const std::vector<buffer>& in,
                                        const std::vector<double>& expected,
                                        const buffer& actual) const {
  require_case(*this, c);
  require_inputs(*this, c, in);
  require_output(*this, c, expected, actual);
  const auto im = image_of(c.dims);
  const float* n = in[0].as<float>().data();
  const float* f = in[1].as<float>().data();
  const float* got = actual.as<float>().data();
  const bool integer = c.distribution == "integer";
  // A correct kernel rounds at most (2r+1)^2 products and additions; one term more covers the
  // double reference (tolerance.h).
  const auto terms = static_cast<double>(im.mask_width() * im.mask_width() + 1);
  const auto rows = static_cast<std::size_t>(im.height);
  const auto width = static_cast<std::size_t>(im.width);
  const auto taps = static_cast<std::size_t>(im.mask_width() * im.mask_width());
  const std::size_t parts = part_count(rows, min_rows_per_part(width * taps));
  std::vector<tally> tallies(parts);
  for_parts(rows, parts, [&](std::size_t part, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      for (std::size_t j = 0; j < width; ++j) {
        const std::size_t e = i * width + j;
        const double abs_sum =
            convolve_at(im, n, f, static_cast<long>(i), static_cast<long>(j)).abs_value;
        tallies[part].check_f32(e, expected[e], got[e], f32_sum_tolerance(terms, abs_sum, integer));
      }
    }
  });
  for (std::size_t p = 1; p < parts; ++p) {
    tallies[0].merge(tallies[p]);
  }
  comparison result = tallies[0].finish(rows * width);
  if (result.first) {
    const auto& first = *result.first;
    result.note = fmt::format(
        "{}; first at P[{}][{}]: expected {}, got {}, allowed error {}",
        mismatch_summary(result, "elements"), first.index / width, first.index % width,
        format_number(first.expected), format_number(first.got),
        tolerance_text(integer && tallies[0].first_allowed() == 0, tallies[0].first_allowed()));
  }
  return result;
}

// A multiply-add per mask entry and output element (ghost cells included: kernels commonly
// multiply them as 0); every element of N read and of P written once, the mask once.
work_counts convolution_problem::work(const shape& s) const {
  const auto im = image_of(s);
  const double pixels = static_cast<double>(im.height) * static_cast<double>(im.width);
  const auto taps = static_cast<double>(im.mask_width() * im.mask_width());
  return {.flops = 2 * pixels * taps, .bytes = 4 * (2 * pixels + taps)};
}

// Measured 9.6e7 (tiled) to 1.4e8 (naive) multiply-adds per second with the reference kernels
// at 1024 x 1024, r = 3 (both runs of a case, the CPU reference included; a 2-core machine,
// 2026-11-28); a quarter of the slower, since a student's kernel may read far more than it needs.
emulation_pace convolution_problem::emulated_pace() const {
  return {.unit = "multiply-adds", .flops_per_unit = 2, .units_per_second = 2e7};
}

// What the references move (reference/convolution.cu), request by request as a warp makes them
// (see warp_sectors above): the naive kernel reads every element of N once per mask entry (the
// rows of a warp overlap in whole sectors only) and the mask from global memory; the tiled
// kernel reads each tile with its halo once.
std::optional<technique_traffic> convolution_problem::expected_traffic(std::string_view launcher,
                                                                       const shape& s) const {
  const auto im = image_of(s);
  const double minimum = work(s).bytes;
  if (im.height <= 0 || im.width <= 0 || im.r <= 0 || minimum <= 0) {
    return std::nullopt;
  }
  if (launcher == "convolution_naive") {
    return technique_traffic{
        naive_bytes(im) / minimum,
        "threads computing one element of P each from global memory, in 16x16 blocks,",
        "sum each element of P in a register and store it once, reading each element of N in "
        "its window once"};
  }
  if (launcher == "convolution_tiled") {
    return technique_traffic{
        tiled_bytes(im) / minimum,
        "16x16 output tiles loaded once with their halo cells, the mask in __constant__ memory,",
        "load each input tile and its halo into a __shared__ array once per block, compute "
        "only from that array, and read the mask from __constant__ memory (cudaMemcpyToSymbol), "
        "not from global memory"};
  }
  return std::nullopt;
}

void convolution_problem::invoke(void* launcher, const std::vector<void*>& device_inputs,
                                 void* device_output, const shape& s) const {
  require_pointers(*this, s, device_inputs, device_output);
  const auto im = image_of(s);
  if (im.height > INT_MAX || im.width > INT_MAX || im.r > INT_MAX) {
    CUGRADE_THROW(fmt::format("convolution shape {} does not fit the launcher's int sizes",
                              describe(id(), s)));
  }
  as_launcher<launcher_fn>(launcher)(
      static_cast<const float*>(device_inputs[0]), static_cast<const float*>(device_inputs[1]),
      static_cast<float*>(device_output), static_cast<int>(im.height), static_cast<int>(im.width),
      static_cast<int>(im.r));
}

} // namespace cugrade::problems
