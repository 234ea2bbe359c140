#include "harness/problems/histogram_inputs.h"

#include "harness/core/error.h"
#include "harness/problems/support.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace cugrade::problems {

namespace {

// Words of the course's vocabulary, each stored with its trailing space in a 16-byte slot so the
// generator copies a whole slot at once (the next word overwrites the excess).
struct word_slot {
  std::array<char, 16> text{};
  std::size_t size = 0;
};

constexpr std::array<std::string_view, 24> vocabulary{
    "programming", "massively", "parallel", "processors", "a",      "hands",
    "on",          "approach",  "kernel",   "thread",     "block",  "grid",
    "warp",        "shared",    "global",   "memory",     "atomic", "histogram",
    "reduction",   "tile",      "barrier",  "the",        "of",     "and"};

constexpr std::array<word_slot, vocabulary.size()> make_slots() {
  std::array<word_slot, vocabulary.size()> slots{};
  for (std::size_t w = 0; w < vocabulary.size(); ++w) {
    for (std::size_t c = 0; c < vocabulary[w].size(); ++c) {
      slots[w].text[c] = vocabulary[w][c];
    }
    slots[w].text[vocabulary[w].size()] = ' ';
    slots[w].size = vocabulary[w].size() + 1;
  }
  return slots;
}

constexpr auto word_slots = make_slots();

constexpr std::uint64_t byteswap64(std::uint64_t x) {
  std::uint64_t y = 0;
  for (int b = 0; b < 8; ++b, x >>= 8) {
    y = (y << 8) | (x & 0xff);
  }
  return y;
}

void fill_uniform(std::span<std::uint8_t> out, xoshiro256ss& rng) {
  // Eight bytes per step, in little-endian order whatever the host, so 256 MiB takes tens of
  // milliseconds.
  std::size_t i = 0;
  for (; i + 8 <= out.size(); i += 8) {
    std::uint64_t bits = rng.next();
    if constexpr (std::endian::native == std::endian::big) {
      bits = byteswap64(bits);
    }
    std::memcpy(out.data() + i, &bits, sizeof bits);
  }
  for (std::uint64_t bits = rng.next(); i < out.size(); ++i, bits >>= 8) {
    out[i] = static_cast<std::uint8_t>(bits);
  }
}

void fill_text(std::span<std::uint8_t> out, xoshiro256ss& rng) {
  std::size_t i = 0;
  while (i < out.size()) {
    const auto pick = scale32(static_cast<std::uint32_t>(rng.next()), word_slots.size());
    const word_slot& w = word_slots[pick];
    if (i + w.text.size() <= out.size()) {
      std::memcpy(out.data() + i, w.text.data(), w.text.size());
    } else {
      std::memcpy(out.data() + i, w.text.data(), std::min(w.size, out.size() - i));
    }
    i += w.size;
  }
}

/// Each byte is `hot` with probability threshold / 2^12, else uniform: 12 bits decide and 8 bits
/// pick, so one 64-bit step makes three bytes.
auto contention_filler(std::uint8_t hot, std::uint32_t threshold) {
  const auto pick = [hot, threshold](std::uint64_t bits) {
    // Branch-free: at 90% or 10% a branch here mispredicts often enough to triple the time.
    const auto part = static_cast<std::uint32_t>(bits);
    const std::uint32_t is_hot =
        0u - static_cast<std::uint32_t>(((part >> 8) & 0xfffu) < threshold);
    return static_cast<std::uint8_t>((hot & is_hot) | (part & ~is_hot));
  };
  return [pick](std::span<std::uint8_t> out, xoshiro256ss& rng) {
    std::size_t i = 0;
    for (; i + 3 <= out.size(); i += 3) {
      const std::uint64_t bits = rng.next();
      out[i] = pick(bits);
      out[i + 1] = pick(bits >> 20);
      out[i + 2] = pick(bits >> 40);
    }
    for (std::uint64_t bits = rng.next(); i < out.size(); ++i, bits >>= 20) {
      out[i] = pick(bits);
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
    const auto threshold = static_cast<std::uint32_t>((percent * 4096 + 50) / 100);
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
