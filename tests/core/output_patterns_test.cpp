#include "grader/core/output_patterns.h"

#include <cmath>
#include <gtest/gtest.h>

namespace cugrade::grader {
namespace {

std::vector<float> counting(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = static_cast<float>(i % 7) + 0.25f;
  }
  return v;
}

double sum(const std::vector<float>& v, std::size_t first, std::size_t count) {
  double s = 0;
  for (std::size_t i = first; i < first + count; ++i) {
    s += v[i];
  }
  return s;
}

TEST(PartialSum, FindsThePrefixOfWholeBlocks) {
  const auto v = counting(1000);
  const auto m = match_partial_sum(v, sum(v, 0, 512), 1e-3);
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->prefix);
  EXPECT_EQ(m->first, 0u);
  EXPECT_EQ(m->count, 512u);
}

TEST(PartialSum, FindsOneBlockAlone) {
  const auto v = counting(3000);
  const auto m = match_partial_sum(v, sum(v, 1024, 1024), 1e-3);
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->prefix);
  EXPECT_EQ(m->first, 1024u);
  EXPECT_EQ(m->count, 1024u);
}

// Blocks lost in any order: where every whole block sums alike (an input of ones), k of them and
// the last, partial block, whichever k were lost.
TEST(PartialSum, FindsSomeBlocksThatSumAlikeAndTheLastOne) {
  const std::vector<float> ones(10007, 1.0f); // 9 blocks of 1024 and 791 elements
  const auto m = match_partial_sum(ones, 3 * 1024 + 791, 1e-3);
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->with_last_block);
  EXPECT_FALSE(m->prefix);
  EXPECT_EQ(m->count, 3u * 1024 + 791);
  // The same count without the last block's elements is the first 3863 - 791 elements.
  EXPECT_TRUE(match_partial_sum(ones, 3 * 1024, 1e-3)->prefix);
  // Not a whole number of blocks and the last one, nor the whole sum.
  EXPECT_FALSE(match_partial_sum(ones, 3 * 1024 + 790, 1e-3));
  EXPECT_FALSE(match_partial_sum(ones, 10007, 1e-3));
}

TEST(PartialSum, SomeBlocksAndTheLastNeedBlocksThatSumAlike) {
  const auto v = counting(10007);
  // Three blocks of 1024 from the middle and the last, partial one: which three, a sum of
  // unlike blocks cannot say, so it is no match.
  const double got = sum(v, 2048, 3 * 1024) + sum(v, 9 * 1024, 791);
  const auto m = match_partial_sum(v, got, 1e-3);
  EXPECT_FALSE(m && m->with_last_block);
}

TEST(PartialSum, TheWholeSumOrAnUnrelatedValueIsNoMatch) {
  const auto v = counting(1000);
  EXPECT_FALSE(match_partial_sum(v, sum(v, 0, 1000), 1e-3));
  EXPECT_FALSE(match_partial_sum(v, -12345.5, 1e-3));
  EXPECT_FALSE(match_partial_sum(v, std::nan(""), 1e-3));
  EXPECT_FALSE(match_partial_sum(counting(20), 1.25, 1e-3)); // one block is the whole input
}

TEST(SameAnswer, ComparesElementwiseAndNeverMatchesNaN) {
  const std::vector<double> a{1, 2, 3};
  EXPECT_TRUE(same_answer(a, a, 1e-6));
  EXPECT_FALSE(same_answer(a, std::vector<double>{1, 2, 4}, 1e-6));
  EXPECT_FALSE(same_answer(a, std::vector<double>{1, 2}, 1e-6));
  EXPECT_FALSE(same_answer(std::vector<double>{std::nan("")}, std::vector<double>{1}, 1e-6));
}

TEST(OutputValues, ReadsCountsAsUnsignedAndFloatsAsFloats) {
  problems::buffer counts;
  counts.type = problems::element_type::u32;
  counts.bytes.resize(8);
  counts.as<std::uint32_t>()[0] = 0x7fbadbadu;
  counts.as<std::uint32_t>()[1] = 3;
  EXPECT_EQ(output_values(counts), (std::vector<double>{2142952365.0, 3.0}));
  problems::buffer sums;
  sums.type = problems::element_type::f32;
  sums.bytes.resize(4);
  sums.as<float>()[0] = 1.5f;
  EXPECT_EQ(output_values(sums), std::vector<double>{1.5});
}

} // namespace
} // namespace cugrade::grader
