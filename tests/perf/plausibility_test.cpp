// The physical floor and the host-clock cross-check.

#include "grader/perf/plausibility.h"

#include <gtest/gtest.h>

namespace cugrade::perf {
namespace {

TEST(FloorMs, IsBytesOverPeakBandwidth) {
  EXPECT_NEAR(floor_ms(3e9, 3000), 1.0, 1e-12); // 3 GB at 3 TB/s
  EXPECT_EQ(floor_ms(1e9, 0), 0);
}

TEST(JudgeSamples, FlagsATimeBelowTheFloor) {
  const std::vector<double> event(20, 0.01);
  const std::vector<double> host(20, 0.02);
  const auto p = judge_samples(summarize(event), event, host, 268e6, 3350);
  EXPECT_TRUE(p.suspicious);
  EXPECT_NE(p.note.find("physical floor"), std::string::npos) << p.note;
}

TEST(JudgeSamples, AcceptsATimeAboveTheFloorWithLaunchOverhead) {
  const std::vector<double> event(20, 0.1);
  const std::vector<double> host(20, 0.13);
  const auto p = judge_samples(summarize(event), event, host, 268e6, 3350);
  EXPECT_FALSE(p.suspicious) << p.note;
}

TEST(JudgeSamples, FlagsWorkThatEscapesTheEventsOnEveryCall) {
  const std::vector<double> event(20, 1.0);
  const std::vector<double> host(20, 1.5); // 0.5 ms > max(0.05, 0.2 ms)
  const auto p = judge_samples(summarize(event), event, host, 1e6, 3350);
  EXPECT_TRUE(p.suspicious);
  EXPECT_NE(p.note.find("host clock"), std::string::npos) << p.note;
}

TEST(JudgeSamples, IgnoresAFewSlowHostSamples) {
  std::vector<double> event(20, 1.0);
  std::vector<double> host(20, 1.02);
  host[3] = 9.0; // the host thread was descheduled once
  host[7] = 5.0;
  EXPECT_FALSE(judge_samples(summarize(event), event, host, 1e6, 3350).suspicious);
}

TEST(JudgeSamples, ANoSampleCaseIsSuspicious) {
  const std::vector<double> none;
  EXPECT_TRUE(judge_samples(summarize(none), none, none, 1, 1).suspicious);
}

} // namespace
} // namespace cugrade::perf
