#include "harness/problems/tolerance.h"

#include <bit>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

namespace cugrade::problems {
namespace {

const float poison = std::bit_cast<float>(output_poison_word);

TEST(Gamma, MatchesItsDefinition) {
  EXPECT_DOUBLE_EQ(gamma_f32(1), 0x1p-24 / (1 - 0x1p-24));
  EXPECT_DOUBLE_EQ(gamma_f32(1000), 1000 * 0x1p-24 / (1 - 1000 * 0x1p-24));
  EXPECT_EQ(gamma_f32(0), 0.0);
}

TEST(Gamma, StaysFiniteAndGrowingBeyondOneOverU) {
  // n u >= 1: the exponential form (1 + u)^n - 1, still an upper bound on the rounding growth.
  const double at_limit = gamma_f32(0x1p24);
  EXPECT_TRUE(std::isfinite(at_limit));
  EXPECT_NEAR(at_limit, std::exp(1.0) - 1, 1e-6);
  EXPECT_GT(gamma_f32(0x1p26), at_limit);
  EXPECT_GT(gamma_f32(0x1p24 - 1), at_limit); // gamma_n itself is the larger of the two
}

TEST(SumTolerance, ExactForSmallIntegerSumsOnly) {
  EXPECT_EQ(f32_sum_tolerance(100, 1600, true), 0.0);
  EXPECT_EQ(f32_sum_tolerance(100, 0x1p24, true), 0.0);
  EXPECT_EQ(f32_sum_tolerance(100, 0x1p24 + 1, true), gamma_f32(100) * (0x1p24 + 1));
  EXPECT_EQ(f32_sum_tolerance(100, 1600, false), gamma_f32(100) * 1600);
  EXPECT_EQ(f32_sum_tolerance(5, 0, false), 0.0); // no absolute floor
}

TEST(Tally, PassesWithinToleranceAndFailsJustBeyond) {
  tally t;
  t.check_f32(0, 1.0, 1.0f + 0x1p-23f, 0x1p-23);
  EXPECT_TRUE(t.finish(1).passed);
  t.check_f32(1, 1.0, 1.0f + 0x1p-22f, 0x1p-23);
  const auto c = t.finish(2);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 1u);
  ASSERT_TRUE(c.first.has_value());
  EXPECT_EQ(c.first->index, 1u);
  EXPECT_EQ(c.max_abs_error, 0x1p-22);
  EXPECT_EQ(c.element_count, 2u);
}

TEST(Tally, NanAndInfAreNeverCloseEvenWithAHugeTolerance) {
  tally t;
  t.check_f32(0, 1.0, std::numeric_limits<float>::quiet_NaN(), 1e300);
  t.check_f32(1, 1.0, std::numeric_limits<float>::infinity(), 1e300);
  t.check_f32(2, 1.0, -std::numeric_limits<float>::infinity(), 1e300);
  const auto c = t.finish(3);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.nan_count, 3u);
  EXPECT_EQ(c.poison_count, 0u);
  EXPECT_EQ(c.mismatches, 3u);
}

TEST(Tally, PoisonIsCountedApartFromNan) {
  tally t;
  t.check_f32(0, 1.0, poison, 1e300);
  t.check_u32(1, 5, output_poison_word);
  const auto c = t.finish(2);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.poison_count, 2u);
  EXPECT_EQ(c.nan_count, 0u);
  EXPECT_EQ(mismatch_summary(c, "elements"),
            "2 of 2 elements wrong, 2 never written (still the poison word)");
}

TEST(Tally, CountsAreExact) {
  tally t;
  t.check_u32(0, 7, 7);
  EXPECT_TRUE(t.finish(1).passed);
  t.check_u32(1, 7, 8);
  EXPECT_FALSE(t.finish(2).passed);
}

TEST(Tally, RelativeErrorFallsBackToAbsoluteWhenExpectedIsZero) {
  tally t;
  t.check_f32(0, 0.0, 0.5f, 1.0);
  t.check_f32(1, 4.0, 5.0f, 2.0);
  const auto c = t.finish(2);
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.max_rel_error, 0.5);
  EXPECT_EQ(c.max_abs_error, 1.0);
}

TEST(Tally, MergeKeepsTheLowestFirstMismatch) {
  tally early, late;
  early.check_f32(0, 1.0, 1.0f, 0);
  late.check_f32(5, 1.0, 2.0f, 0.25);
  late.check_f32(6, 1.0, 3.0f, 0.25);
  early.merge(late);
  auto c = early.finish(7);
  ASSERT_TRUE(c.first.has_value());
  EXPECT_EQ(c.first->index, 5u);
  EXPECT_EQ(early.first_allowed(), 0.25);
  EXPECT_EQ(c.mismatches, 2u);
  EXPECT_EQ(c.max_abs_error, 2.0);
}

} // namespace
} // namespace cugrade::problems

namespace cugrade::problems {
namespace {

TEST(FormatNumber, WholeNumbersPrintAsIntegersOthersWithNineDigits) {
  EXPECT_EQ(format_number(2142952365.0), "2142952365"); // an uncleared histogram bin
  EXPECT_EQ(format_number(0.0), "0");
  EXPECT_EQ(format_number(-7.0), "-7");
  EXPECT_EQ(format_number(1015.17712), "1015.17712");
  EXPECT_EQ(format_number(1e20), "1e+20");
  EXPECT_EQ(format_number(std::nan("")), "nan");
}

} // namespace
} // namespace cugrade::problems
