// Sample statistics, the bootstrap interval of a speedup, the geometric mean.

#include "grader/perf/statistics.h"

#include <gtest/gtest.h>
#include <random>

namespace cugrade::perf {
namespace {

TEST(Median, TakesTheMiddleOrTheMeanOfTheMiddleTwo) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({}), 0);
}

TEST(Summarize, ReportsEveryFigureOfAnEntry) {
  const std::vector<double> x{1, 2, 3, 4, 10};
  const auto s = summarize(x);
  EXPECT_EQ(s.count, 5u);
  EXPECT_EQ(s.median_ms, 3);
  EXPECT_EQ(s.mean_ms, 4);
  EXPECT_EQ(s.min_ms, 1);
  EXPECT_EQ(s.max_ms, 10);
  EXPECT_NEAR(s.rel_stddev, 3.5355339059327378 / 4, 1e-12);
}

std::vector<double> noisy(double centre, double spread, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> d(centre, spread);
  std::vector<double> x;
  for (int i = 0; i < n; ++i) {
    x.push_back(d(rng));
  }
  return x;
}

TEST(SpeedupInterval, BracketsTheRatioOfMedians) {
  const std::uint64_t seed = 11;
  const auto ref = noisy(2.0, 0.02, 200, seed);
  const auto student = noisy(1.0, 0.01, 200, seed + 1);
  const auto r = speedup_interval(ref, student, 5);
  EXPECT_NEAR(r.estimate, 2.0, 0.01) << "seed " << seed;
  EXPECT_LT(r.low, r.estimate);
  EXPECT_GT(r.high, r.estimate);
  EXPECT_GT(r.low, 1.98);
  EXPECT_LT(r.high, 2.02);
}

TEST(SpeedupInterval, OfTheSameDistributionHoldsOne) {
  const std::uint64_t seed = 21;
  const auto a = noisy(1.0, 0.01, 300, seed);
  const auto b = noisy(1.0, 0.01, 300, seed + 1);
  const auto r = speedup_interval(a, b, 7);
  EXPECT_LE(r.low, 1.0) << "seed " << seed;
  EXPECT_GE(r.high, 1.0) << "seed " << seed;
  EXPECT_LT(r.high - r.low, 0.01);
}

TEST(SpeedupInterval, IsTheSameForTheSameSeed) {
  const auto a = noisy(1.0, 0.05, 50, 1);
  const auto b = noisy(1.1, 0.05, 50, 2);
  const auto r1 = speedup_interval(a, b, 99);
  const auto r2 = speedup_interval(a, b, 99);
  EXPECT_EQ(r1.low, r2.low);
  EXPECT_EQ(r1.high, r2.high);
}

TEST(GeometricMean, IsNthRootOfTheProductAndZeroForNonPositive) {
  EXPECT_NEAR(geometric_mean(std::vector<double>{2, 8}), 4, 1e-12);
  EXPECT_NEAR(geometric_mean(std::vector<double>{0.5, 2}), 1, 1e-12);
  EXPECT_EQ(geometric_mean(std::vector<double>{}), 0);
  EXPECT_EQ(geometric_mean(std::vector<double>{1, 0}), 0);
}

} // namespace
} // namespace cugrade::perf
