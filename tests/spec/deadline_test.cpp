#include "grader/spec/detail/deadline.h"

#include <gtest/gtest.h>

namespace cugrade::spec::detail {
namespace {

TEST(NormaliseDeadline, KeepsUtcTimes) {
  EXPECT_EQ(normalise_deadline("2026-12-01T23:59:00Z"), "2026-12-01T23:59:00Z");
}

TEST(NormaliseDeadline, ConvertsOffsetsToUtc) {
  EXPECT_EQ(normalise_deadline("2026-12-02T00:59:00+01:00"), "2026-12-01T23:59:00Z");
  EXPECT_EQ(normalise_deadline("2026-12-31T23:30:00-01:00"), "2027-01-01T00:30:00Z");
}

TEST(NormaliseDeadline, KnowsLeapYears) {
  EXPECT_EQ(normalise_deadline("2028-02-29T12:00:00Z"), "2028-02-29T12:00:00Z");
  EXPECT_EQ(normalise_deadline("2026-02-29T12:00:00Z"), std::nullopt);
}

TEST(NormaliseDeadline, RejectsMalformedTimes) {
  for (const char* text :
       {"2026-12-01", "2026-12-01T23:59Z", "2026-12-01 23:59:00Z", "2026-12-01T24:00:00Z",
        "2026-13-01T00:00:00Z", "2026-12-01T23:59:00", "2026-12-01T23:59:00+0100",
        "2026-12-01T23:59:00.5Z", "tomorrow", "2026-12-01T23:59:00Zjunk"})
    EXPECT_EQ(normalise_deadline(text), std::nullopt) << text;
}

} // namespace
} // namespace cugrade::spec::detail
