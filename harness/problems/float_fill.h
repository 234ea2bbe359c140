#pragma once
/// \file
/// Float inputs that the GPU can make itself, byte for byte what the host makes.
///
/// A generated input is cut into chunks of `generation_chunk` elements, chunk c drawn from its
/// own xoshiro256** stream (chunk_stream; support.h's fill_chunked cuts the host's inputs). A
/// `float_recipe` names such an input: how its chunks are filled, its seed and its length. The
/// host (fill_on_host) and the GPU backend's generation kernel both call `fill_chunk`, so a timing
/// runner can make a benchmark's input sets on the device instead of generating hundreds of MiB
/// on the host and uploading them inside the exclusive hold (docs/timing.md, section 10).

#include "harness/problems/rng.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace cugrade::problems {

/// Elements per independently seeded chunk: generation runs on any number of threads and still
/// produces the same bytes, because chunk c always draws from derive_seed(seed, c).
inline constexpr std::size_t generation_chunk = std::size_t{1} << 16;

/// How a chunk's elements come from its random bits.
enum class float_fill : std::uint8_t {
  symmetric_unit, ///< m * 2^-23, m in [-2^23, 2^23): matmul's "real"
  nine_integers,  ///< integers in [-4, 4], two per 64 bits (low half first): matmul's "integer"
};

/// One f32 input made by a fill: `count` elements of `fill` from `seed`, each negated when
/// `negate` (the fresh-contents call's first float input, protocol::input_set_inputs).
struct float_recipe {
  float_fill fill = float_fill::symmetric_unit;
  std::uint64_t seed = 0;
  std::size_t count = 0;
  bool negate = false;
};

/// One integer of nine_integers from 32 random bits.
CUGRADE_HOST_DEVICE constexpr float nine_integer(std::uint32_t bits) noexcept {
  return static_cast<float>(static_cast<int>(scale32(bits, 9)) - 4);
}

/// The chunks an input of `count` elements is cut into.
CUGRADE_HOST_DEVICE constexpr std::size_t chunk_count(std::size_t count) noexcept {
  return (count + generation_chunk - 1) / generation_chunk;
}

/// The random stream of chunk `chunk` of an input generated from `seed`.
CUGRADE_HOST_DEVICE inline xoshiro256ss chunk_stream(std::uint64_t seed,
                                                     std::size_t chunk) noexcept {
  return xoshiro256ss(derive_seed(seed, std::uint64_t{chunk}));
}

/// Fills the `n` elements of one chunk (`out` points at its first) by `fill` from the chunk's
/// stream `rng`. Negating is exact: -1.0f * x is -x for every float.
CUGRADE_HOST_DEVICE inline void fill_chunk(float_fill fill, xoshiro256ss& rng, float* out,
                                           std::size_t n, bool negate) noexcept {
  const float sign = negate ? -1.0f : 1.0f;
  if (fill == float_fill::symmetric_unit) {
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = sign * symmetric_unit(rng.next());
    }
    return;
  }
  for (std::size_t i = 0; i < n; i += 2) {
    const std::uint64_t bits = rng.next();
    out[i] = sign * nine_integer(static_cast<std::uint32_t>(bits));
    if (i + 1 < n) {
      out[i + 1] = sign * nine_integer(static_cast<std::uint32_t>(bits >> 32));
    }
  }
}

/// Makes `recipe`'s input in `out` (recipe.count elements) on the host's cores.
void fill_on_host(const float_recipe& recipe, std::span<float> out);

} // namespace cugrade::problems
