// --deadline on the fetch side: the parser's error names the option, and late days count started
// days. The forms themselves are tested with the parser (tests/harness_core/iso8601_test.cpp).
#include "grader/fetch/fetch.h"
#include "tests/fetch/git_fixture.h"

#include <gtest/gtest.h>

namespace cugrade::fetch {
namespace {

using namespace std::chrono;
using clock_point = system_clock::time_point;

clock_point instant(const char* iso) {
  return clock_point(seconds(testing::epoch(iso)));
}

TEST(ParseDeadline, RejectsGarbageWithClearMessage) {
  const auto got = parse_deadline("next friday");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().rfind("--deadline \"next friday\" is not a date and time", 0), 0u)
      << got.error();
  EXPECT_NE(got.error().find("2026-11-21T23:59:00Z"), std::string::npos) << got.error();
  const auto good = parse_deadline("2026-11-21T23:59:00Z");
  ASSERT_TRUE(good.ok()) << good.error();
  EXPECT_EQ(*good, instant("2026-11-21T23:59:00Z"));
}

TEST(LateDays, CountsStartedDays) {
  const auto deadline = instant("2026-11-21T23:59:00Z");
  EXPECT_EQ(late_days(deadline, deadline), 0);
  EXPECT_EQ(late_days(deadline - hours(5), deadline), 0);
  EXPECT_EQ(late_days(deadline + seconds(1), deadline), 1);
  EXPECT_EQ(late_days(deadline + hours(24), deadline), 1);
  EXPECT_EQ(late_days(deadline + hours(25), deadline), 2);
  EXPECT_EQ(late_days(deadline + days(10) + nanoseconds(1), deadline), 11);
}

} // namespace
} // namespace cugrade::fetch
