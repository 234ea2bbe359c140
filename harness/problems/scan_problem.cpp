#include "harness/problems/scan_problem.h"

#include "harness/problems/float_inputs.h"
#include "harness/problems/parallel.h"
#include "harness/problems/support.h"
#include "harness/problems/tolerance.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <utility>
#include <vector>

namespace cugrade::problems {

namespace {

using launcher_fn = void(const float*, long, float*);

std::string tolerance_text(bool exact, double allowed) {
  return exact ? "0 (integer inputs compare exactly)"
               : fmt::format("{} (gamma_(i+1) * sum of |input[0..i]|)", format_number(allowed));
}

// The global bytes of the references' hierarchical scan (reference/scan.cu) of n elements in
// sections of `section`, `threads` a block: each section is read and written once, its sum stored
// by one lane (a sector); the sums are scanned the same way; then every section after the first
// reads its carry (a sector per warp) and is read and written again.
double hierarchical_scan_bytes(long n, long section, long threads) {
  double bytes = 2 * std::ceil(4 * static_cast<double>(n) / 32) * 32;
  const long sections = (n + section - 1) / section;
  if (sections <= 1) {
    return bytes;
  }
  bytes += 32.0 * static_cast<double>(sections);
  bytes += hierarchical_scan_bytes(sections, section, threads);
  bytes += static_cast<double>(sections - 1) * static_cast<double>((threads + 31) / 32) * 32;
  bytes += 8.0 * static_cast<double>(n - section);
  return bytes;
}

} // namespace

std::vector<std::string> scan_problem::launchers() const {
  return {"scan_kogge_stone", "scan_brent_kung"};
}

std::string scan_problem::launcher_parameters() const {
  return launcher_signature<launcher_fn>::parameters({"input", "n", "output"});
}

std::vector<std::string> scan_problem::distributions() const {
  return float_distributions();
}

// Around every block size a course kernel uses (32 to 2048 elements per block), a size that needs
// a second level of block sums (65537 with 1024-element blocks), and one that needs a third
// (1048577 = 2^20 + 1 with 1024-element blocks).
std::vector<shape> scan_problem::edge_shapes() const {
  std::vector<shape> shapes;
  for (const long n : {1L, 2L, 7L, 31L, 32L, 33L, 255L, 256L, 257L, 511L, 513L, 1023L, 1024L, 1025L,
                       2047L, 2049L, 65537L, 1048577L}) {
    shapes.push_back({.n = n});
  }
  return shapes;
}

// 256 MiB in, 256 MiB out: a memory-bound kernel of about 0.2 ms on an H100, long enough that a
// launcher's fixed costs stay below 1% of its time; the double reference (512 MiB) still fits.
std::vector<case_template> scan_problem::benchmark_cases() const {
  return {{.dims = {.n = 1L << 26}, .distribution = "real_offset"}};
}

shape scan_problem::profile_shape() const {
  return {.n = 65536};
}

std::vector<shape> scan_problem::sanitizer_shapes() const {
  return {{.n = 1025}, {.n = 65537}};
}

std::string scan_problem::advice(advice_topic topic) const {
  switch (topic) {
  case advice_topic::boundary:
    return "elements at or past n must count as 0 (load `i < n ? input[i] : 0.0f`) and must "
           "never be stored, and the last partial block must be scanned and receive the sums of "
           "the blocks before it like any other";
  case advice_topic::race:
    return "in Kogge-Stone, every thread must read its partner's value before any thread "
           "overwrites it: read into a register, __syncthreads(), then write, then "
           "__syncthreads() again before the next step; in Brent-Kung, a __syncthreads() is "
           "missing between the steps of the up-sweep or the down-sweep";
  case advice_topic::size_limit:
    return "a second level that covers a fixed number of blocks: the section totals are scanned "
           "by one block, so with S-element sections and a B-thread block only n up to S x (B + "
           "1) is right. Scan the totals the way the input is scanned (in sections, with a level "
           "above them when there are more sections than one block holds)";
  case advice_topic::barrier:
    break;
  }
  return "every thread of the block must reach the __syncthreads() of every step of the scan, "
         "the threads that add nothing in that step included: guard the addition (`if (t >= "
         "stride)`), never the barrier";
}

std::vector<buffer_spec> scan_problem::inputs(const shape& s) const {
  return {{"input", element_type::f32, static_cast<std::size_t>(s.n)}};
}

buffer_spec scan_problem::output(const shape& s) const {
  return {"output", element_type::f32, static_cast<std::size_t>(s.n)};
}

std::vector<buffer> scan_problem::generate(const test_case& c) const {
  require_case(*this, c);
  buffer b = make_buffer(element_type::f32, static_cast<std::size_t>(c.dims.n));
  fill_float_distribution(b.as<float>(), c.distribution, derive_seed(c.seed, std::uint64_t{0}));
  std::vector<buffer> out;
  out.push_back(std::move(b));
  return out;
}

// Running sums in double, left to right: the double error (below i 2^-53 S_i) is covered by the
// extra term in gamma_(i+1) (see tolerance.h).
std::vector<double> scan_problem::reference(const test_case& c,
                                            const std::vector<buffer>& in) const {
  require_case(*this, c);
  require_inputs(*this, c, in);
  const auto x = in[0].as<float>();
  std::vector<double> y(x.size());
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sum += static_cast<double>(x[i]);
    y[i] = sum;
  }
  return y;
}

comparison scan_problem::compare(const test_case& c, const std::vector<buffer>& in,
                                 const std::vector<double>& expected, const buffer& actual) const {
  require_case(*this, c);
  require_inputs(*this, c, in);
  require_output(*this, c, expected, actual);
  const auto x = in[0].as<float>();
  const auto got = actual.as<float>();
  const bool integer = integer_distribution(c.distribution);
  // Element i's tolerance needs the sum of |x| up to i: each part first sums its own |x|, then
  // checks its elements starting from the sum of the parts before it.
  const std::size_t parts = part_count(x.size(), std::size_t{1} << 18);
  std::vector<double> before = abs_sums_by_part(x, parts);
  double running = 0;
  for (double& b : before) {
    running += std::exchange(b, running);
  }
  std::vector<tally> tallies(parts);
  for_parts(x.size(), parts, [&](std::size_t part, std::size_t begin, std::size_t end) {
    double abs_sum = before[part];
    for (std::size_t i = begin; i < end; ++i) {
      abs_sum += std::fabs(static_cast<double>(x[i]));
      const double allowed = f32_sum_tolerance(static_cast<double>(i + 1), abs_sum, integer);
      tallies[part].check_f32(i, expected[i], got[i], allowed);
    }
  });
  tally t;
  for (const tally& part : tallies) {
    t.merge(part);
  }
  comparison result = t.finish(x.size());
  if (result.first) {
    const auto& f = *result.first;
    result.note = fmt::format("{}; first at output[{}]: expected {}, got {}, allowed error {}",
                              mismatch_summary(result, "elements"), f.index,
                              format_number(f.expected), format_number(f.got),
                              tolerance_text(integer && t.first_allowed() == 0, t.first_allowed()));
  }
  return result;
}

// A work-efficient scan adds n - 1 times; it must read every input and write every output once.
// Measured 1.4e6 (Kogge-Stone) to 3.8e6 (Brent-Kung) elements per CPU second with the reference
// kernels at n = 2^22, one worker: barrier after barrier, the slowest kind to emulate; half of
// the slowest.
emulation_pace scan_problem::emulated_pace() const {
  return {.unit = "additions", .flops_per_unit = 1, .units_per_second = 7e5};
}

work_counts scan_problem::work(const shape& s) const {
  const auto n = static_cast<double>(s.n);
  return {.flops = std::max(n - 1, 0.0), .bytes = 8 * n};
}

std::optional<technique_traffic> scan_problem::expected_traffic(std::string_view launcher,
                                                                const shape& s) const {
  const double minimum = work(s).bytes;
  if (s.n <= 0) {
    return std::nullopt;
  }
  // Kogge-Stone: a thread per element, 1024 a block; Brent-Kung: two elements a thread, 512.
  const long section = 1024;
  long threads = 0;
  if (launcher == "scan_kogge_stone") {
    threads = 1024;
  } else if (launcher == "scan_brent_kung") {
    threads = 512;
  } else {
    return std::nullopt;
  }
  return technique_traffic{hierarchical_scan_bytes(s.n, section, threads) / minimum,
                           "1024-element sections scanned in shared memory, their sums scanned "
                           "and added back,",
                           "each section needs reading and writing once per pass (keep the "
                           "steps of the scan in a __shared__ array, not in global memory)"};
}

void scan_problem::invoke(void* launcher, const std::vector<void*>& device_inputs,
                          void* device_output, const shape& s) const {
  require_pointers(*this, s, device_inputs, device_output);
  as_launcher<launcher_fn>(launcher)(static_cast<const float*>(device_inputs[0]), s.n,
                                     static_cast<float*>(device_output));
}

} // namespace cugrade::problems
