#include "harness/problems/rng.h"

namespace cugrade::problems {

xoshiro256ss::xoshiro256ss(std::uint64_t seed) noexcept {
  // SplitMix64 outputs are a bijection of distinct counters, so the state is never all zero.
  splitmix64 expand(seed);
  for (auto& word : m_s) {
    word = expand.next();
  }
}

std::uint64_t fnv1a64(std::string_view text) noexcept {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::uint64_t derive_seed(std::uint64_t base, std::string_view name) noexcept {
  // FNV-1a alone mixes poorly in its high bits; the SplitMix finaliser spreads every name bit.
  return mix64(mix64(base) ^ mix64(fnv1a64(name)));
}

std::uint64_t derive_seed(std::uint64_t base, std::uint64_t index) noexcept {
  return mix64(mix64(base ^ 0x5bd1e9955bd1e995ULL) + (index + 1) * golden_gamma);
}

} // namespace cugrade::problems
