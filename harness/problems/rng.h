#pragma once
/// \file
/// Portable pseudo-random numbers for input generation.
///
/// Hidden test inputs must be the same bytes on every platform, compiler and standard library, so
/// nothing here uses <random>'s distributions (their algorithms are implementation-defined): random
/// bits come from xoshiro256** seeded through SplitMix64, and every conversion to a value is
/// integer arithmetic or an exact power-of-two scaling.

#include <cstdint>
#include <string_view>

/// Marks what the GPU backend's input generation runs on the device too (float_fill.h): under
/// nvcc both host and device code, elsewhere plain C++.
#ifdef __CUDACC__
#define CUGRADE_HOST_DEVICE __host__ __device__
#else
#define CUGRADE_HOST_DEVICE
#endif

namespace cugrade::problems {

/// SplitMix64's output function: a bijective 64-bit mixer (Steele, Lea and Flood, 2014).
[[nodiscard]] CUGRADE_HOST_DEVICE constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The golden-ratio increment of SplitMix64.
inline constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15ULL;

/// SplitMix64: used only to expand one 64-bit seed into xoshiro's 256-bit state.
class splitmix64 {
public:
  CUGRADE_HOST_DEVICE explicit constexpr splitmix64(std::uint64_t seed) noexcept : m_state(seed) {}
  CUGRADE_HOST_DEVICE constexpr std::uint64_t next() noexcept {
    m_state += golden_gamma;
    return mix64(m_state);
  }

private:
  std::uint64_t m_state;
};

/// xoshiro256** 1.0 (Blackman and Vigna): fast, 256-bit state, passes BigCrush.
class xoshiro256ss {
public:
  CUGRADE_HOST_DEVICE explicit xoshiro256ss(std::uint64_t seed) noexcept {
    // SplitMix64 outputs are a bijection of distinct counters, so the state is never all zero.
    splitmix64 expand(seed);
    for (auto& word : m_s) {
      word = expand.next();
    }
  }
  CUGRADE_HOST_DEVICE std::uint64_t next() noexcept {
    const std::uint64_t out = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return out;
  }

private:
  CUGRADE_HOST_DEVICE static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept {
    return (x << k) | (x >> (64 - k));
  }
  std::uint64_t m_s[4];
};

/// 64-bit FNV-1a hash of a string.
[[nodiscard]] std::uint64_t fnv1a64(std::string_view text) noexcept;

/// A seed for the thing called `name` under `base`: adding or reordering names never changes
/// another name's seed.
[[nodiscard]] std::uint64_t derive_seed(std::uint64_t base, std::string_view name) noexcept;
/// A seed for sub-stream `index` (a buffer, a chunk) under `base`.
[[nodiscard]] CUGRADE_HOST_DEVICE inline std::uint64_t derive_seed(std::uint64_t base,
                                                                   std::uint64_t index) noexcept {
  return mix64(mix64(base ^ 0x5bd1e9955bd1e995ULL) + (index + 1) * golden_gamma);
}

/// A uniform integer in [0, range) from 32 random bits by multiply-shift (no division; the bias
/// is below range / 2^32, and the mapping is the same everywhere).
[[nodiscard]] CUGRADE_HOST_DEVICE constexpr std::uint32_t scale32(std::uint32_t bits,
                                                                  std::uint32_t range) noexcept {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(bits) * range) >> 32);
}

/// A float uniform on the grid m * 2^-23, m in [-2^23, 2^23), i.e. in [-1, 1), from the top
/// 24 of `bits`. Every value is exactly representable, so no rounding mode can change it.
[[nodiscard]] CUGRADE_HOST_DEVICE constexpr float symmetric_unit(std::uint64_t bits) noexcept {
  const auto m = static_cast<std::int32_t>(bits >> 40) - (1 << 23);
  return static_cast<float>(m) * 0x1p-23f;
}

} // namespace cugrade::problems
