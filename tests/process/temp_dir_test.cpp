#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>

using cugrade::process::temp_dir;

TEST(TempDir, IsRemovedWithItsContents) {
  std::filesystem::path where;
  {
    const temp_dir dir("cugrade-test");
    where = dir.path();
    ASSERT_TRUE(std::filesystem::is_directory(where));
    EXPECT_EQ(where.filename().string().rfind("cugrade-test-", 0), 0u);
    std::filesystem::create_directories(where / "a" / "b");
    std::ofstream(where / "a" / "b" / "file.txt") << "x";
  }
  EXPECT_FALSE(std::filesystem::exists(where));
}

TEST(TempDir, KeepLeavesItInPlace) {
  std::filesystem::path where;
  {
    temp_dir dir("cugrade-test");
    where = dir.path();
    dir.keep();
  }
  EXPECT_TRUE(std::filesystem::is_directory(where));
  std::filesystem::remove_all(where);
}

TEST(TempDir, MovingTransfersOwnership) {
  temp_dir first("cugrade-test");
  const std::filesystem::path where = first.path();
  {
    const temp_dir second(std::move(first));
    EXPECT_EQ(second.path(), where);
    EXPECT_TRUE(first.path().empty()); // NOLINT(bugprone-use-after-move): moved-from is empty
  }
  EXPECT_FALSE(std::filesystem::exists(where));
}

TEST(TempDir, ThrowsWhenTheParentIsMissing) {
  EXPECT_ANY_THROW(temp_dir("cugrade-test", "/nonexistent/cugrade-parent"));
}

namespace cugrade::process {
namespace {

TEST(TempDir, OrphanedFoldersOfDeadProcessesAreRemoved) {
  const temp_dir parent("orphans");
  // pid 2^22 + 1 is above Linux's pid_max limit: never a live process.
  const auto orphan = parent.path() / "cugrade-grade-4194305-abc123";
  const auto mine = parent.path() / (owned_prefix("cugrade-grade") + "-def456");
  const auto other = parent.path() / "unrelated-1-x";
  for (const auto& dir : {orphan, mine, other}) {
    std::filesystem::create_directories(dir / "inside");
  }
  EXPECT_EQ(remove_orphaned_dirs(parent.path(), "cugrade-grade"), 1u);
  EXPECT_FALSE(std::filesystem::exists(orphan));
  EXPECT_TRUE(std::filesystem::exists(mine));
  EXPECT_TRUE(std::filesystem::exists(other));
}

} // namespace
} // namespace cugrade::process
