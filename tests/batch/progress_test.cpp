// The live status line: what each GPU runs, and the gradings between stages.

#include "grader/batch/points_text.h"
#include "grader/batch/progress.h"
#include "tests/surfaces/terminal_controls.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <sstream>

namespace cugrade::batch {
namespace {

TEST(Progress, TheLiveLineNamesWhoIsOnEachGpuAndCountsThoseCheckingOnTheCpu) {
  std::ostringstream out;
  progress shown(out, 5, 0, /*live=*/true, {"0", "1"});
  shown.doing("alice", "GPU 0");
  shown.doing("bob", "checking"); // left its GPU slot for the timed calls' checks
  shown.doing("carol", "building");
  shown.doing("dave", "checking");
  shown.tick();
  const auto line = out.str();
  EXPECT_NE(line.find("GPU 0: alice | GPU 1: idle"), std::string::npos) << line;
  EXPECT_NE(line.find("1 building"), std::string::npos) << line;
  EXPECT_NE(line.find("2 checking"), std::string::npos) << line;
}

TEST(Progress, AFinishedLineShowsTheReasonEscapedOnOneLine) {
  std::ostringstream out;
  progress shown(out, 1, 0, /*live=*/false, {});
  reports::report r;
  reports::mark_ungradable(r, "refs/heads/main\x1b]52;c;aGk=\x07 is not valid\nsecond line\u202E");
  shown.finished("mallory", r);
  const auto line = out.str();
  EXPECT_TRUE(surfaces::terminal_controls_in(line).empty()) << line;
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << line;
  EXPECT_NE(line.find("mallory: not gradable: refs/heads/main\\x1b]52;c;aGk=\\x07 is not "
                      "valid\\nsecond line\\u202e"),
            std::string::npos)
      << line;
}

TEST(Progress, AFinishedLineRoundsPointsToTwoDecimals) {
  reports::report r;
  r.score = 29.589776573699904;
  r.max_score = 50;
  EXPECT_EQ(finished_line("alice", r), "alice: 29.59/50");
  r.score = 17.5;
  r.max_score = 20.004;
  EXPECT_EQ(finished_line("bob", r), "bob: 17.5/20");
}

TEST(PointsText, TwoDecimalsAtMostWithoutTrailingZeros) {
  EXPECT_EQ(points_text(29.589776573699904), "29.59");
  EXPECT_EQ(points_text(20), "20");
  EXPECT_EQ(points_text(17.5), "17.5");
  EXPECT_EQ(points_text(0.004), "0");
  EXPECT_EQ(points_text(-0.001), "0");
  EXPECT_EQ(points_text(9.999), "10");
  EXPECT_EQ(points_text(2.675), "2.67"); // 2.675 is 2.67499999... as a double
}

} // namespace
} // namespace cugrade::batch
