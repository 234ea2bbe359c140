#include "harness/problems/reduction_problem.h"

#include "harness/problems/float_inputs.h"
#include "harness/problems/support.h"
#include "harness/problems/tolerance.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace cugrade::problems {

namespace {

using launcher_fn = void(const float*, long, float*);

/// Sum of f(x) over the input in double, by parts merged in a fixed order. The double sum's own
/// error (below n 2^-53 sum|x|) is covered by the extra term in gamma_n (see tolerance.h).
template <class F> double sum_of(std::span<const float> x, F f) {
  const std::size_t parts = part_count(x.size(), std::size_t{1} << 20);
  std::vector<double> partial(parts, 0.0);
  for_parts(x.size(), parts, [&](std::size_t part, std::size_t begin, std::size_t end) {
    double s = 0;
    for (std::size_t i = begin; i < end; ++i) {
      s += f(static_cast<double>(x[i]));
    }
    partial[part] = s;
  });
  double total = 0;
  for (const double p : partial) {
    total += p;
  }
  return total;
}

} // namespace

std::vector<std::string> reduction_problem::launchers() const {
  return {"reduce_interleaved", "reduce_convergent"};
}

std::string reduction_problem::launcher_parameters() const {
  return launcher_signature<launcher_fn>::parameters({"input", "n", "result"});
}

std::vector<std::string> reduction_problem::distributions() const {
  return float_distributions();
}

std::vector<shape> reduction_problem::edge_shapes() const {
  std::vector<shape> shapes;
  for (const long n : {1L, 2L, 7L, 15L, 16L, 17L, 31L, 33L, 63L, 65L, 127L, 129L, 255L, 257L, 1023L,
                       1025L, 65537L, 1000003L}) {
    shapes.push_back({.n = n});
  }
  return shapes;
}

// 1 GiB of floats: a memory-bound kernel of about 0.25 ms on an H200, long enough that the
// launcher's fixed costs (clearing the result, launch latency: a few microseconds) stay below 1%
// of its time. At 2^26 they were 2 to 3% of a 65 us kernel and the samples' spread about 1%.
std::vector<case_template> reduction_problem::benchmark_cases() const {
  return {{.dims = {.n = 1L << 28}, .distribution = "real_offset"}};
}

std::vector<buffer_spec> reduction_problem::inputs(const shape& s) const {
  return {{"input", element_type::f32, static_cast<std::size_t>(s.n)}};
}

buffer_spec reduction_problem::output(const shape&) const {
  return {"result", element_type::f32, 1};
}

std::vector<buffer> reduction_problem::generate(const test_case& c) const {
  require_case(*this, c);
  buffer b = make_buffer(element_type::f32, static_cast<std::size_t>(c.dims.n));
  fill_float_distribution(b.as<float>(), c.distribution, derive_seed(c.seed, std::uint64_t{0}));
  std::vector<buffer> out;
  out.push_back(std::move(b));
  return out;
}

std::vector<double> reduction_problem::reference(const test_case& c,
                                                 const std::vector<buffer>& in) const {
  require_case(*this, c);
  require_inputs(*this, c, in);
  return {sum_of(in[0].as<float>(), [](double x) { return x; })};
}

comparison reduction_problem::compare(const test_case& c, const std::vector<buffer>& in,
                                      const std::vector<double>& expected,
                                      const buffer& actual) const {
  require_case(*this, c);
  require_inputs(*this, c, in);
  require_output(*this, c, expected, actual);
  const double abs_sum = sum_of(in[0].as<float>(), [](double x) { return std::fabs(x); });
  const bool integer = integer_distribution(c.distribution);
  const double allowed = f32_sum_tolerance(static_cast<double>(c.dims.n), abs_sum, integer);
  tally t;
  t.check_f32(0, expected[0], actual.as<float>()[0], allowed);
  comparison result = t.finish(1);
  const std::string bound = integer && allowed == 0
                                ? "0 (integer inputs compare exactly)"
                                : fmt::format("{} (gamma_n * sum|x|)", format_number(allowed));
  const double got = result.poison_count > 0 ? std::nan("") : actual.as<float>()[0];
  result.note = fmt::format("sum of n = {}: expected {}, got {}{}, allowed error {}", c.dims.n,
                            format_number(expected[0]), format_number(got),
                            result.poison_count > 0 ? " (never written)" : "", bound);
  return result;
}

// Measured 3.6e7 additions per CPU second with the reference kernels (grid-stride sums first) at
// n = 2^24, one worker; a textbook tree over 256-thread blocks, one addition per thread per
// barrier, runs at about 6.5e6 (docs/emulation.md, "Speed"): below that.
emulation_pace reduction_problem::emulated_pace() const {
  return {.unit = "additions", .flops_per_unit = 1, .units_per_second = 5e6};
}

work_counts reduction_problem::work(const shape& s) const {
  const auto n = static_cast<double>(s.n);
  return {.flops = std::max(n - 1, 0.0), .bytes = 4 * n + 4};
}

// The references' global traffic (reference/reduction.cu): a grid-stride sum reads each float
// once, a warp's 32 consecutive floats four sectors; the tree stays in shared memory and the
// result changes only by an atomic.
std::optional<technique_traffic> reduction_problem::expected_traffic(std::string_view launcher,
                                                                     const shape& s) const {
  const double minimum = work(s).bytes;
  if (s.n <= 0 || (launcher != "reduce_interleaved" && launcher != "reduce_convergent")) {
    return std::nullopt;
  }
  return technique_traffic{std::ceil(4 * static_cast<double>(s.n) / 32) * 32 / minimum,
                           "grid-stride sums reading each element once",
                           "each input element needs reading once (keep the tree's partial sums "
                           "in a __shared__ array, not in global memory)"};
}

void reduction_problem::invoke(void* launcher, const std::vector<void*>& device_inputs,
                               void* device_output, const shape& s) const {
  require_pointers(*this, s, device_inputs, device_output);
  as_launcher<launcher_fn>(launcher)(static_cast<const float*>(device_inputs[0]), s.n,
                                     static_cast<float*>(device_output));
}

shape reduction_problem::profile_shape() const {
  return {.n = 1L << 23};
}

std::vector<shape> reduction_problem::sanitizer_shapes() const {
  return {{.n = 1025}, {.n = 65537}};
}

std::string reduction_problem::advice(advice_topic topic) const {
  switch (topic) {
  case advice_topic::boundary:
    return "elements at or past n must count as 0 (load `i < n ? input[i] : 0.0f`), and every "
           "element below n must be loaded, the last partial block included";
  case advice_topic::race:
    return "a __syncthreads() is missing between the steps of the tree, or partial sums are "
           "combined without atomicAdd";
  case advice_topic::size_limit:
    return "a fixed number of blocks or of elements per thread covers only so much of the input: "
           "launch blocks for all n elements, or loop over the input with a grid-stride loop";
  case advice_topic::barrier:
    break;
  }
  return "every thread of the block must reach the __syncthreads() of every step of the tree: "
         "take it out of `if (t < stride)` and put it after the if";
}

} // namespace cugrade::problems
