#include "harness/problems/histogram_problem.h"

#include "harness/problems/histogram_inputs.h"
#include "harness/problems/support.h"
#include "harness/problems/tolerance.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>

namespace cugrade::problems {

namespace {

using launcher_fn = void(const unsigned char*, long, unsigned int*);

std::string bin_name(std::size_t bin) {
  // Printable bytes are named too: with "text" inputs a wrong 'e' is easier to read than 101.
  return bin >= 0x20 && bin < 0x7f ? fmt::format("{} ('{}')", bin, static_cast<char>(bin))
                                   : fmt::format("{}", bin);
}

} // namespace

std::vector<std::string> histogram_problem::launchers() const {
  return {"histogram_sectioned", "histogram_interleaved", "histogram_privatized"};
}

std::string histogram_problem::launcher_parameters() const {
  return launcher_signature<launcher_fn>::parameters({"input", "n", "bins"});
}

std::vector<std::string> histogram_problem::distributions() const {
  return histogram_distributions();
}

std::vector<shape> histogram_problem::edge_shapes() const {
  std::vector<shape> shapes;
  for (const long n : {1L, 2L, 7L, 15L, 16L, 17L, 31L, 33L, 63L, 65L, 127L, 129L, 255L, 257L, 1009L,
                       65537L, 1000003L, 4194319L}) {
    shapes.push_back({.n = n});
  }
  return shapes;
}

std::vector<case_template> histogram_problem::benchmark_cases() const {
  constexpr long bytes = 256L << 20;
  return {{.dims = {.n = bytes}, .distribution = "uniform"},
          {.dims = {.n = bytes}, .distribution = "contention90"}};
}

std::vector<buffer_spec> histogram_problem::inputs(const shape& s) const {
  return {{"input", element_type::u8, static_cast<std::size_t>(s.n)}};
}

buffer_spec histogram_problem::output(const shape&) const {
  return {"bins", element_type::u32, histogram_bins};
}

std::vector<buffer> histogram_problem::generate(const test_case& c) const {
  require_case(*this, c);
  buffer b = make_buffer(element_type::u8, static_cast<std::size_t>(c.dims.n));
  fill_histogram_input(c.distribution, derive_seed(c.seed, std::uint64_t{0}), b.as<std::uint8_t>());
  std::vector<buffer> out;
  out.push_back(std::move(b));
  return out;
}

std::vector<double> histogram_problem::reference(const test_case& c,
                                                 const std::vector<buffer>& in) const {
  require_case(*this, c);
  require_inputs(*this, c, in);
  const auto bytes = in[0].as<std::uint8_t>();
  const std::size_t parts = part_count(bytes.size(), std::size_t{1} << 20);
  // Four sub-histograms per thread, so runs of one byte value ("single", "contention90") do not
  // serialise on one counter's load-increment-store chain.
  std::vector<std::array<std::array<std::uint64_t, histogram_bins>, 4>> counts(parts);
  for_parts(bytes.size(), parts, [&](std::size_t part, std::size_t begin, std::size_t end) {
    auto& mine = counts[part];
    for (auto& sub : mine) {
      sub.fill(0);
    }
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
      ++mine[0][bytes[i]];
      ++mine[1][bytes[i + 1]];
      ++mine[2][bytes[i + 2]];
      ++mine[3][bytes[i + 3]];
    }
    for (; i < end; ++i) {
      ++mine[0][bytes[i]];
    }
  });
  std::vector<double> bins(histogram_bins, 0.0);
  for (const auto& part : counts) {
    for (const auto& sub : part) {
      for (std::size_t b = 0; b < histogram_bins; ++b) {
        bins[b] += static_cast<double>(sub[b]);
      }
    }
  }
  return bins;
}

comparison histogram_problem::compare(const test_case& c, const std::vector<buffer>& in,
                                      const std::vector<double>& expected,
                                      const buffer& actual) const {
  require_case(*this, c);
  require_inputs(*this, c, in);
  require_output(*this, c, expected, actual);
  const auto got = actual.as<std::uint32_t>();
  tally t;
  double total = 0;
  for (std::size_t b = 0; b < histogram_bins; ++b) {
    t.check_u32(b, expected[b], got[b]);
    // An unwritten bin holds 2 billion: it is reported as such, not added to the total.
    total += got[b] == output_poison_word ? 0.0 : static_cast<double>(got[b]);
  }
  comparison result = t.finish(histogram_bins);
  result.total_expected = static_cast<double>(c.dims.n);
  result.total_got = total;
  result.note = fmt::format("bins total {}, expected n = {}", format_number(total), c.dims.n);
  if (result.poison_count > 0) {
    result.note += fmt::format(" (not counting {} unwritten bins)", result.poison_count);
  }
  if (result.first) {
    const auto& f = *result.first;
    result.note +=
        fmt::format("; {}; first bin {}: expected {}, got {}", mismatch_summary(result, "bins"),
                    bin_name(f.index), format_number(f.expected), format_number(f.got));
  }
  return result;
}

// Measured 6.6e7 (privatized) to 7.1e7 input bytes counted per CPU second with the reference
// kernels at n = 2^25, one worker; a sixth of that, for kernels with a barrier or a contended
// atomic per element.
emulation_pace histogram_problem::emulated_pace() const {
  return {.unit = "bytes counted", .flops_per_unit = 1, .units_per_second = 1e7};
}

work_counts histogram_problem::work(const shape& s) const {
  const auto n = static_cast<double>(s.n);
  return {.flops = n, .bytes = n + 4.0 * histogram_bins};
}

// The references' global traffic (reference/histogram.cu): the bins change only by atomics, so
// what moves is the input. The interleaved and privatised kernels read each byte once, a warp's
// 32 consecutive bytes one sector. The sectioned kernel's lanes read bytes a section apart, so
// a warp's request spans min(section, 32) sectors: the input moves that many times. Its
// section is n over its threads, 256 a block and 4 blocks an SM on the course's GPUs (H100 and
// H200, and the emulated device: 132 SMs), never more blocks than the input fills.
std::optional<technique_traffic> histogram_problem::expected_traffic(std::string_view launcher,
                                                                     const shape& s) const {
  constexpr long block_threads = 256;
  constexpr long blocks_per_sm = 4;
  constexpr long course_gpu_sms = 132;
  const double minimum = work(s).bytes;
  if (s.n <= 0) {
    return std::nullopt;
  }
  const double input_once = std::ceil(static_cast<double>(s.n) / 32) * 32;
  const char* advice = "each input byte needs reading once (check that no loop reads the input "
                       "again, per bin or per pass)";
  if (launcher == "histogram_interleaved" || launcher == "histogram_privatized") {
    return technique_traffic{input_once / minimum, "grid-stride loops reading each byte once",
                             advice};
  }
  if (launcher == "histogram_sectioned") {
    const long blocks =
        std::min(blocks_per_sm * course_gpu_sms, (s.n + block_threads - 1) / block_threads);
    const long threads = blocks * block_threads;
    const long section = (s.n + threads - 1) / threads;
    return technique_traffic{input_once * static_cast<double>(std::min(section, 32L)) / minimum,
                             fmt::format("sections of {} bytes a thread", section), advice};
  }
  return std::nullopt;
}

void histogram_problem::invoke(void* launcher, const std::vector<void*>& device_inputs,
                               void* device_output, const shape& s) const {
  require_pointers(*this, s, device_inputs, device_output);
  as_launcher<launcher_fn>(launcher)(static_cast<const unsigned char*>(device_inputs[0]), s.n,
                                     static_cast<unsigned int*>(device_output));
}

shape histogram_problem::profile_shape() const {
  return {.n = 262144};
}

std::vector<shape> histogram_problem::sanitizer_shapes() const {
  return {{.n = 4099}, {.n = 65537}};
}

std::string histogram_problem::advice(advice_topic topic) const {
  switch (topic) {
  case advice_topic::boundary:
    return "every read of input must check i < n, and the sections (or the grid-stride loop) "
           "must together cover exactly the n bytes, the last partial one included";
  case advice_topic::race:
    return "a bin is incremented without atomicAdd by threads that share it, or a "
           "__syncthreads() is missing between clearing, counting into and merging the "
           "block's private bins";
  case advice_topic::size_limit:
    return fixed_work_advice();
  case advice_topic::barrier:
    break;
  }
  return "every thread of the block must reach the __syncthreads() between clearing, counting "
         "into and merging the block's private bins: guard the work, never the barrier";
}

} // namespace cugrade::problems
