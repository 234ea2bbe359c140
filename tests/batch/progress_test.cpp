// The live status line: what each GPU runs, and the gradings between stages.

#include "grader/batch/progress.h"

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

} // namespace
} // namespace cugrade::batch
