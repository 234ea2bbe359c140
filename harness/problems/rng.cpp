#include "harness/problems/rng.h"

namespace cugrade::problems {

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

} // namespace cugrade::problems
