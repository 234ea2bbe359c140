// The timing protocol's rules: spread, throttled samples, the stopping rule.

#include "harness/runner/timing_rules.h"

#include <gtest/gtest.h>

namespace cugrade::runner {
namespace {

protocol::timing_request rules() {
  protocol::timing_request t;
  t.min_samples = 10;
  t.max_samples = 1000;
  t.min_seconds = 0.5;
  t.max_seconds = 15;
  t.target_rsd = 0.005;
  t.target_rse = 0.001;
  return t;
}

TEST(RelativeStddev, IsSampleStddevOverMean) {
  const std::vector<double> x{1, 2, 3, 4};
  EXPECT_NEAR(relative_stddev(x), 1.2909944487358056 / 2.5, 1e-12);
  EXPECT_EQ(relative_stddev(std::vector<double>{5}), 0);
  EXPECT_EQ(relative_stddev(std::vector<double>{}), 0);
}

TEST(Unthrottled, KeepsSamplesAtNinetyPercentOfTheMaxClockOrMore) {
  const std::vector<double> clocks{1980, 1800, 1782, 1781, 1000, 1980};
  const auto kept = unthrottled(clocks, 0.9);
  EXPECT_EQ(kept, (std::vector<std::size_t>{0, 1, 2, 5}));
}

TEST(Unthrottled, NeverDropsAnUnknownClock) {
  const std::vector<double> clocks{0, 1980, 0};
  EXPECT_EQ(unthrottled(clocks, 0.9).size(), 3u);
}

TEST(StopReason, WaitsForTheMinimumSamplesAndDeviceTime) {
  const std::vector<double> nine(9, 100.0);
  EXPECT_EQ(stop_reason(rules(), nine, 9, 1.0), "");
  const std::vector<double> short_ones(20, 1.0); // 20 ms < 0.5 s
  EXPECT_EQ(stop_reason(rules(), short_ones, 20, 1.0), "");
  const std::vector<double> enough(10, 60.0);
  EXPECT_EQ(stop_reason(rules(), enough, 10, 1.0), "rsd");
}

TEST(StopReason, StopsOnTheStandardErrorWhenTheSpreadStaysLarge) {
  std::vector<double> x;
  for (int i = 0; i < 400; ++i) {
    x.push_back(i % 2 == 0 ? 9.9 : 10.1); // rsd 1%, rse 0.05% at n = 400
  }
  EXPECT_EQ(stop_reason(rules(), std::span(x).first(50), 50, 1.0), "");
  EXPECT_EQ(stop_reason(rules(), x, 400, 1.0), "rse");
}

TEST(StopReason, CapsSamplesAndWallTime) {
  std::vector<double> noisy;
  for (int i = 0; i < 20; ++i) {
    noisy.push_back(i % 2 == 0 ? 1.0 : 100.0);
  }
  EXPECT_EQ(stop_reason(rules(), noisy, 1000, 1.0), "max_samples");
  EXPECT_EQ(stop_reason(rules(), noisy, 20, 15.0), "max_seconds");
  EXPECT_EQ(stop_reason(rules(), noisy, 20, 14.9), "");
}

TEST(StopReason, CountsDroppedSamplesTowardsTheCap) {
  const std::vector<double> kept(3, 1.0);
  EXPECT_EQ(stop_reason(rules(), kept, 1000, 0.1), "max_samples");
}

} // namespace
} // namespace cugrade::runner
