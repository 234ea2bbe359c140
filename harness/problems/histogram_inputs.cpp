#include "harness/problems/histogram_inputs.h"

#include "harness/core/error.h"
#include "harness/problems/support.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace cugrade::problems {

namespace {

// Words of the course's vocabulary; the generator separates them by single spaces.
constexpr std::array<std::string_view, 24> vocabulary{
    "programming", "massively", "parallel", "processors", "a",      "hands",
    "on",          "approach",  "kernel",   "thread",     "block",  "grid",
    "warp",        "shared",    "global",   "memory",     "atomic", "histogram",
    "reduction",   "tile",      "barrier",  "the",        "of",     "and"};

void fill_uniform(std::span<std::uint8_t> out, xoshiro256ss& rng) {
  // Eight bytes per step, little-endian whatever the host, so 256 MiB takes milliseconds.
  std::size_t i = 0;
  for (; i + 8 <= out.size(); i += 8) {
    std::uint64_t bits = rng.next();
    for (int b = 0; b < 8; ++b, bits >>= 8) {
      out[i + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(bits);
    }
  }
  for (std::uint64_t bits = rng.next(); i < out.size(); ++i, bits >>= 8) {
    out[i] = static_cast<std::uint8_t>(bits);
  }
}

void fill_text(std::span<std::uint8_t> out, xoshiro256ss& rng) {
  std::size_t i = 0;
  while (i < out.size()) {
    const auto word =
        vocabulary[scale32(static_cast<std::uint32_t>(rng.next()), vocabulary.size())];
    const std::size_t take = std::min(word.size(), out.size() - i);
    std::memcpy(out.data() + i, word.data(), take);
    i += take;
    if (i < out.size()) {
      out[i++] = ' ';
    }
  }
}

/// Each byte is `hot` with probability threshold / 2^24, else uniform: 24 bits decide, 8 pick.
auto contention_filler(std::uint8_t hot, std::uint32_t threshold) {
  return [hot, threshold](std::span<std::uint8_t> out, xoshiro256ss& rng) {
    for (std::size_t i = 0; i < out.size(); i += 2) {
      const std::uint64_t bits = rng.next();
      for (std::size_t h = 0; h < 2 && i + h < out.size(); ++h) {
        const auto half = static_cast<std::uint32_t>(bits >> (32 * h));
        out[i + h] = (half >> 8) < threshold ? hot : static_cast<std::uint8_t>(half);
      }
    }
  };
}

void fill_sorted_runs(std::span<std::uint8_t> out, xoshiro256ss& rng) {
  // Sequential by nature (each run starts where the last ended), but one step per run is cheap.
  auto value = static_cast<std::uint8_t>(rng.next());
  for (std::size_t i = 0; i < out.size(); ++value) {
    const std::size_t run = 1000 + scale32(static_cast<std::uint32_t>(rng.next()), 4001);
    const std::size_t take = std::min(run, out.size() - i);
    std::memset(out.data() + i, value, take);
    i += take;
  }
}

} // namespace

std::vector<std::string> histogram_distributions() {
  return {"uniform",      "text",         "single",     "contention10",
          "contention40", "contention90", "sorted_runs"};
}

void fill_histogram_input(std::string_view distribution, std::uint64_t seed,
                          std::span<std::uint8_t> out) {
  const auto hot = static_cast<std::uint8_t>(derive_seed(seed, "hot value"));
  const auto contention = [&](std::uint32_t percent) {
    const auto threshold = static_cast<std::uint32_t>((std::uint64_t{percent} << 24) / 100);
    fill_chunked(out, seed, contention_filler(hot, threshold));
  };
  if (distribution == "uniform") {
    fill_chunked(out, seed, fill_uniform);
  } else if (distribution == "text") {
    fill_chunked(out, seed, fill_text);
  } else if (distribution == "single") {
    std::fill(out.begin(), out.end(), hot);
  } else if (distribution == "contention10") {
    contention(10);
  } else if (distribution == "contention40") {
    contention(40);
  } else if (distribution == "contention90") {
    contention(90);
  } else if (distribution == "sorted_runs") {
    xoshiro256ss rng(seed);
    fill_sorted_runs(out, rng);
  } else {
    CUGRADE_THROW("unknown histogram distribution \"" + std::string(distribution) + "\"");
  }
}

} // namespace cugrade::problems
