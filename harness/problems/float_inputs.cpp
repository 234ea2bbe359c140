#include "harness/problems/float_inputs.h"

#include "harness/problems/support.h"

#include <algorithm>

namespace cugrade::problems {

namespace {

void fill_real_offset(std::span<float> out, xoshiro256ss& rng) {
  // (2^23 + m) * 2^-23 with m in [-2^22, 2^22): 1 + [-0.5, 0.5) on a grid every value of which
  // float32 represents exactly (spacing 2^-24 below 1, 2^-23 above).
  for (float& x : out) {
    const auto m = static_cast<std::int32_t>(rng.next() >> 41) - (1 << 22);
    x = static_cast<float>((1 << 23) + m) * 0x1p-23f;
  }
}

void fill_integer(std::span<float> out, xoshiro256ss& rng) {
  for (std::size_t i = 0; i < out.size(); i += 2) {
    const std::uint64_t bits = rng.next();
    out[i] =
        static_cast<float>(static_cast<int>(scale32(static_cast<std::uint32_t>(bits), 17)) - 8);
    if (i + 1 < out.size()) {
      out[i + 1] = static_cast<float>(static_cast<int>(scale32(bits >> 32, 17)) - 8);
    }
  }
}

} // namespace

std::vector<std::string> float_distributions() {
  return {"real_offset", "integer", "ones"};
}

bool integer_distribution(const std::string& distribution) {
  return distribution != "real_offset";
}

void fill_float_distribution(std::span<float> out, const std::string& distribution,
                             std::uint64_t seed) {
  if (distribution == "real_offset") {
    fill_chunked(out, seed, fill_real_offset);
  } else if (distribution == "integer") {
    fill_chunked(out, seed, fill_integer);
  } else {
    std::ranges::fill(out, 1.0f);
  }
}

} // namespace cugrade::problems
