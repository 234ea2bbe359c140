// What a batch journals as a student's grading inputs: a roster whose bytes are not UTF-8 (a
// Latin-1 path from an old spreadsheet) is recorded with U+FFFD, never an exception that would
// stop the class.
#include "grader/batch/plan.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cugrade::batch {
namespace {

TEST(Plan, GradingInputsOfARosterThatIsNotUtf8AreRecordedNotThrown) {
  roster_entry e;
  e.student = "alice";
  e.repository = "/class/caf\xE9/alice"; // Latin-1 e-acute
  e.commit = "\xFF";
  batch_options o;
  std::string inputs;
  ASSERT_NO_THROW(inputs = grading_inputs(e, o));
  const auto j = nlohmann::json::parse(inputs, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << inputs;
  EXPECT_EQ(j.value("repository", ""), "/class/caf\uFFFD/alice");
  EXPECT_EQ(j.value("commit", ""), "\uFFFD");
}

} // namespace
} // namespace cugrade::batch
