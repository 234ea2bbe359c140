// The one date parser (--deadline and a spec's "deadline") and the one UTC formatter.
#include "harness/core/iso8601.h"

#include <gtest/gtest.h>

namespace cugrade {
namespace {

using namespace std::chrono;
using clock_point = system_clock::time_point;

clock_point at(int y, unsigned mo, unsigned d, int h = 0, int mi = 0, int s = 0) {
  return clock_point(sys_days{year{y} / month{mo} / day{d}} + hours(h) + minutes(mi) + seconds(s));
}

clock_point parsed(const char* text) {
  const auto r = parse_iso8601(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error());
  return r.ok() ? *r : clock_point{};
}

TEST(ParseIso8601, AcceptsUtcAndOffsets) {
  EXPECT_EQ(parsed("2026-11-21T23:59:00Z"), at(2026, 11, 21, 23, 59));
  EXPECT_EQ(parsed("2026-11-21T23:59:00+02:00"), at(2026, 11, 21, 21, 59));
  EXPECT_EQ(parsed("2026-11-21T23:59:00-0530"), at(2026, 11, 22, 5, 29));
  EXPECT_EQ(parsed("2026-12-31T23:30:00-01:00"), at(2027, 1, 1, 0, 30));
  EXPECT_EQ(parsed("2026-11-21T23:59-01:00"), at(2026, 11, 22, 0, 59));
  EXPECT_EQ(parsed("2026-11-21t23:59:00z"), at(2026, 11, 21, 23, 59));
}

TEST(ParseIso8601, WithoutZoneMeansUtc) {
  EXPECT_EQ(parsed("2026-11-21 23:59"), at(2026, 11, 21, 23, 59));
  EXPECT_EQ(parsed("2026-11-21T23:59"), at(2026, 11, 21, 23, 59));
  EXPECT_EQ(parsed("  2026-11-21 23:59:30 "), at(2026, 11, 21, 23, 59, 30));
}

TEST(ParseIso8601, DateAloneIsEndOfDayUtc) {
  EXPECT_EQ(parsed("2026-11-21"), at(2026, 11, 21, 23, 59, 59));
  EXPECT_EQ(parsed("2028-02-29"), at(2028, 2, 29, 23, 59, 59)); // leap year
}

TEST(ParseIso8601, KeepsFractionalSeconds) {
  EXPECT_EQ(parsed("2026-11-21T23:59:00.250Z") - at(2026, 11, 21, 23, 59), milliseconds(250));
  EXPECT_EQ(parsed("2026-11-21T23:59:00,5+01:00") - at(2026, 11, 21, 22, 59), milliseconds(500));
}

TEST(ParseIso8601, RejectsWhatIsNotADateAndTime) {
  for (const char* bad :
       {"", "tomorrow", "2026-11-21T", "2026-13-01", "2026-02-30", "2027-02-29", "2026-11-21T24:00",
        "2026-11-21T23:60", "2026-11-21T23:59:60Z", "2026-11-21T23:59:00+2", "2026-11-21T23:59+02",
        "2026-11-21T23:59:00+24:00", "2026-11-21T23:59:00+02:60", "2026-11-21T23:59:00Zjunk",
        "26-11-21", "2026-1-2", "2026-11-21T1:00", "2026/11/21", "2026-11-21Z",
        "2026-11-21T23:59:00.Z"})
    EXPECT_FALSE(parse_iso8601(bad).ok()) << '"' << bad << '"';
}

TEST(ParseIso8601, ErrorQuotesTheTextAndListsTheAcceptedForms) {
  const auto r = parse_iso8601("next friday");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "\"next friday\" is not a date and time cugrade understands; write it as "
                       "2026-11-21T23:59:00Z, 2026-11-21T23:59:00+02:00, \"2026-11-21 23:59\" "
                       "(UTC) or 2026-11-21 (the end of that day, UTC)");
}

TEST(FormatIso8601Utc, RoundTripsWholeSeconds) {
  EXPECT_EQ(format_iso8601_utc(at(2026, 11, 21, 23, 59)), "2026-11-21T23:59:00Z");
  EXPECT_EQ(format_iso8601_utc(at(1970, 1, 1)), "1970-01-01T00:00:00Z");
  EXPECT_EQ(format_iso8601_utc(at(2026, 11, 21, 23, 59) + milliseconds(999)),
            "2026-11-21T23:59:00Z");
  EXPECT_EQ(format_iso8601_utc(parsed("2026-11-21T23:59:00+02:00")), "2026-11-21T21:59:00Z");
}

} // namespace
} // namespace cugrade
