#include "grader/process/process.h"

#include <gtest/gtest.h>

using cugrade::process::find_program;

TEST(FindProgram, FindsShOnThePath) {
  const auto sh = find_program("sh");
  ASSERT_TRUE(sh.has_value());
  EXPECT_EQ(sh->filename(), "sh");
  EXPECT_TRUE(sh->is_absolute());
}

TEST(FindProgram, ReturnsNothingForAnUnknownName) {
  EXPECT_FALSE(find_program("cugrade-no-such-program-here").has_value());
  EXPECT_FALSE(find_program("").has_value());
}

TEST(FindProgram, ChecksAPathWithASlashDirectly) {
  EXPECT_TRUE(find_program(CUGRADE_TEST_CHILD).has_value());
  EXPECT_FALSE(find_program("/nonexistent/cugrade").has_value());
  EXPECT_FALSE(find_program("/etc/passwd").has_value()) << "not executable";
}
