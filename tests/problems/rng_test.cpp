#include "harness/problems/rng.h"

#include <gtest/gtest.h>
#include <set>

namespace cugrade::problems {
namespace {

TEST(Splitmix64, MatchesPublishedSequenceForSeedZero) {
  // The first outputs of SplitMix64 seeded with 0, as published with the reference code.
  splitmix64 g(0);
  EXPECT_EQ(g.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(g.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(g.next(), 0x06c45d188009454fULL);
}

TEST(Fnv1a64, MatchesKnownHashes) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
}

TEST(Xoshiro256ss, SameSeedSameStreamDifferentSeedDifferentStream) {
  xoshiro256ss a(42), b(42), c(43);
  bool all_same_as_c = true;
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next();
    EXPECT_EQ(x, b.next());
    all_same_as_c = all_same_as_c && x == c.next();
  }
  EXPECT_FALSE(all_same_as_c);
}

TEST(DeriveSeed, DistinctNamesAndIndicesGiveDistinctSeeds) {
  std::set<std::uint64_t> seeds;
  for (const char* name : {"1x1x1/real", "1x1x1/integer", "n=1/real", "n=1/ones", ""}) {
    seeds.insert(derive_seed(7, name));
    seeds.insert(derive_seed(8, name));
  }
  for (std::uint64_t i = 0; i < 5; ++i) {
    seeds.insert(derive_seed(7, i));
  }
  EXPECT_EQ(seeds.size(), 15u);
  EXPECT_EQ(derive_seed(7, "a"), derive_seed(7, "a"));
}

TEST(Scale32, CoversTheRangeAndNothingElse) {
  EXPECT_EQ(scale32(0, 9), 0u);
  EXPECT_EQ(scale32(0xffffffffu, 9), 8u);
  EXPECT_EQ(scale32(0x80000000u, 2), 1u);
}

TEST(SymmetricUnit, StaysInMinusOneToOneOnTheGrid) {
  EXPECT_EQ(symmetric_unit(0), -1.0f);
  EXPECT_EQ(symmetric_unit(~0ULL), 1.0f - 0x1p-23f);
  EXPECT_EQ(symmetric_unit(1ULL << 63), 0.0f);
  xoshiro256ss g(1);
  for (int i = 0; i < 1000; ++i) {
    const float x = symmetric_unit(g.next());
    ASSERT_GE(x, -1.0f);
    ASSERT_LT(x, 1.0f);
    ASSERT_EQ(x * 0x1p23f, static_cast<float>(static_cast<int>(x * 0x1p23f)));
  }
}

} // namespace
} // namespace cugrade::problems
