#include "grader/fetch/fetch.h"
#include "tests/fetch/git_fixture.h"

#include <gtest/gtest.h>

namespace cugrade::fetch {
namespace {

using namespace std::chrono;
using clock_point = system_clock::time_point;

clock_point at(const char* iso) {
  return clock_point(seconds(testing::epoch(iso)));
}

TEST(ParseIso8601, AcceptsUtcAndOffsets) {
  EXPECT_EQ(parse_iso8601("2026-11-21T23:59:00Z"), at("2026-11-21T23:59:00Z"));
  EXPECT_EQ(parse_iso8601("2026-11-21T23:59:00+02:00"), at("2026-11-21T21:59:00Z"));
  EXPECT_EQ(parse_iso8601("2026-11-21T23:59:00-0530"), at("2026-11-22T05:29:00Z"));
  EXPECT_EQ(parse_iso8601("2026-11-21t23:59:00z"), at("2026-11-21T23:59:00Z"));
}

TEST(ParseIso8601, WithoutZoneMeansUtc) {
  EXPECT_EQ(parse_iso8601("2026-11-21 23:59"), at("2026-11-21T23:59:00Z"));
  EXPECT_EQ(parse_iso8601("2026-11-21T23:59"), at("2026-11-21T23:59:00Z"));
  EXPECT_EQ(parse_iso8601("  2026-11-21 23:59:30 "), at("2026-11-21T23:59:30Z"));
}

TEST(ParseIso8601, DateAloneIsEndOfDayUtc) {
  EXPECT_EQ(parse_iso8601("2026-11-21"), at("2026-11-21T23:59:59Z"));
  EXPECT_EQ(parse_iso8601("2028-02-29"), at("2028-02-29T23:59:59Z")); // leap year
}

TEST(ParseIso8601, KeepsFractionalSeconds) {
  const auto parsed = parse_iso8601("2026-11-21T23:59:00.250Z");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed - at("2026-11-21T23:59:00Z"), milliseconds(250));
}

TEST(ParseIso8601, RejectsGarbage) {
  for (const char* bad :
       {"", "tomorrow", "2026-11-21T", "2026-13-01", "2026-02-30", "2027-02-29", "2026-11-21T24:00",
        "2026-11-21T23:60", "2026-11-21T23:59:00+2", "2026-11-21T23:59:00Zjunk", "26-11-21",
        "2026/11/21", "2026-11-21Z", "2026-11-21T23:59:00.Z"})
    EXPECT_FALSE(parse_iso8601(bad).has_value()) << '"' << bad << '"';
}

TEST(ParseDeadline, RejectsGarbageWithClearMessage) {
  const auto got = parse_deadline("next friday");
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("\"next friday\""), std::string::npos) << got.error();
  EXPECT_NE(got.error().find("2026-11-21T23:59:00Z"), std::string::npos) << got.error();
  const auto good = parse_deadline("2026-11-21T23:59:00Z");
  ASSERT_TRUE(good.ok()) << good.error();
  EXPECT_EQ(*good, at("2026-11-21T23:59:00Z"));
}

TEST(FormatIso8601Utc, RoundTripsWholeSeconds) {
  EXPECT_EQ(format_iso8601_utc(at("2026-11-21T23:59:00Z")), "2026-11-21T23:59:00Z");
  EXPECT_EQ(format_iso8601_utc(at("1970-01-01T00:00:00Z")), "1970-01-01T00:00:00Z");
  EXPECT_EQ(format_iso8601_utc(at("2026-11-21T23:59:00Z") + milliseconds(999)),
            "2026-11-21T23:59:00Z");
  EXPECT_EQ(format_iso8601_utc(*parse_iso8601("2026-11-21T23:59:00+02:00")),
            "2026-11-21T21:59:00Z");
}

TEST(LateDays, CountsStartedDays) {
  const auto deadline = at("2026-11-21T23:59:00Z");
  EXPECT_EQ(late_days(deadline, deadline), 0);
  EXPECT_EQ(late_days(deadline - hours(5), deadline), 0);
  EXPECT_EQ(late_days(deadline + seconds(1), deadline), 1);
  EXPECT_EQ(late_days(deadline + hours(24), deadline), 1);
  EXPECT_EQ(late_days(deadline + hours(25), deadline), 2);
  EXPECT_EQ(late_days(deadline + days(10) + nanoseconds(1), deadline), 11);
}

} // namespace
} // namespace cugrade::fetch
