#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

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

// A process whose program is named `program` and whose command line names `path`; it runs
// until killed (its shell loop's last sleep ends within 0.2 s of the shell).
pid_t start_naming(const std::string& program, const std::filesystem::path& path) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", program.c_str(), "-c", "while :; do sleep 0.2; done", "--bind",
            path.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// Whether `pid` (a child) was killed by SIGKILL within a few seconds.
bool killed_soon(pid_t pid) {
  for (int i = 0; i < 50; ++i) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST(TempDir, ASandboxAKilledGradingLeftInItsFolderIsStopped) {
  const temp_dir parent("orphans");
  const auto orphan = parent.path() / "cugrade-grade-4194305-abc123";
  const auto mine = parent.path() / (owned_prefix("cugrade-grade") + "-def456");
  for (const auto& dir : {orphan, mine}) {
    std::filesystem::create_directories(dir / "part-0");
  }
  const pid_t left = start_naming("/usr/bin/bwrap", orphan / "part-0");
  const pid_t runner = start_naming("/opt/cugrade/bin/cugrade-runner-emu", orphan / "part-0");
  const pid_t reader = start_naming("less", orphan / "part-0"); // a TA looking: not ours to stop
  const pid_t live = start_naming("/usr/bin/bwrap", mine / "part-0"); // this process's grading
  std::this_thread::sleep_for(std::chrono::milliseconds(300)); // each has exec'd
  EXPECT_EQ(remove_orphaned_dirs(parent.path(), "cugrade-grade"), 1u);
  EXPECT_TRUE(killed_soon(left));
  EXPECT_TRUE(killed_soon(runner));
  EXPECT_EQ(::waitpid(reader, nullptr, WNOHANG), 0) << "a process not of cugrade was stopped";
  EXPECT_EQ(::waitpid(live, nullptr, WNOHANG), 0) << "a live grading's sandbox was stopped";
  for (const pid_t pid : {left, runner, reader, live}) { // whatever is still running
    if (::kill(pid, SIGKILL) == 0) {
      ::waitpid(pid, nullptr, 0);
    }
  }
}

} // namespace
} // namespace cugrade::process
