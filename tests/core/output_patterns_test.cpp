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
