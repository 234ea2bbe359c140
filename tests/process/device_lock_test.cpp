// The per-GPU lock: shared holders overlap, an exclusive holder excludes everyone, a waiting
// exclusive holder is not starved by new shared holders, and a killed holder frees the lock.

#include "grader/process/device_lock.h"
#include "grader/process/temp_dir.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <future>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace cugrade::process {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class DeviceLock : public ::testing::Test {
protected:
  void SetUp() override { ::setenv("CUGRADE_LOCK_DIR", m_dir.c_str(), 1); }
  void TearDown() override { ::unsetenv("CUGRADE_LOCK_DIR"); }

  static device_lock take(lock_mode mode, std::function<void(std::string_view)> waiting = {}) {
    auto l = device_lock::acquire("GPU-0000-test", mode, waiting);
    EXPECT_TRUE(l.ok()) << l.error();
    return std::move(*l);
  }

  // Acquires in another thread; the future is ready once the lock is held.
  static std::future<device_lock> take_later(lock_mode mode) {
    return std::async(std::launch::async, [mode] { return take(mode); });
  }

  temp_dir m_tmp{"cugrade-lock-test"};
  fs::path m_dir = m_tmp.path();
};

TEST_F(DeviceLock, LivesInTheConfiguredDirectory) {
  const auto l = take(lock_mode::shared);
  EXPECT_EQ(device_lock::directory(), m_dir);
  EXPECT_TRUE(fs::exists(m_dir / "GPU-0000-test.lock"));
}

TEST_F(DeviceLock, SharedHoldersOverlap) {
  const auto first = take(lock_mode::shared);
  auto second = take_later(lock_mode::shared);
  EXPECT_EQ(second.wait_for(5s), std::future_status::ready);
}

TEST_F(DeviceLock, ExclusiveWaitsForSharedHoldersAndSaysSo) {
  std::optional<device_lock> shared = take(lock_mode::shared);
  std::atomic<bool> told{false};
  auto exclusive = std::async(std::launch::async, [&] {
    return take(lock_mode::exclusive, [&](std::string_view m) {
      told = m.find("waiting for the GPU") != std::string_view::npos;
    });
  });
  EXPECT_EQ(exclusive.wait_for(300ms), std::future_status::timeout);
  EXPECT_TRUE(told);
  shared.reset();
  EXPECT_EQ(exclusive.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(exclusive.get().mode(), lock_mode::exclusive);
}

TEST_F(DeviceLock, ExclusiveExcludesEveryone) {
  std::optional<device_lock> exclusive = take(lock_mode::exclusive);
  auto shared = take_later(lock_mode::shared);
  auto other = take_later(lock_mode::exclusive);
  EXPECT_EQ(shared.wait_for(300ms), std::future_status::timeout);
  EXPECT_EQ(other.wait_for(10ms), std::future_status::timeout);
  exclusive.reset();
  // One of the two goes next; once it lets go, the other follows.
  for (int waited = 0; waited < 500; ++waited) {
    if (shared.wait_for(10ms) == std::future_status::ready) {
      shared.get();
      EXPECT_EQ(other.wait_for(5s), std::future_status::ready);
      return;
    }
    if (other.wait_for(0ms) == std::future_status::ready) {
      other.get();
      EXPECT_EQ(shared.wait_for(5s), std::future_status::ready);
      return;
    }
  }
  ADD_FAILURE() << "nobody got the lock after the exclusive holder let go";
}

TEST_F(DeviceLock, AWaitingExclusiveHolderIsNotStarvedByNewSharedHolders) {
  std::optional<device_lock> shared = take(lock_mode::shared);
  auto exclusive = take_later(lock_mode::exclusive);
  std::this_thread::sleep_for(200ms); // the exclusive holder now waits at the turnstile's far side
  auto late_shared = take_later(lock_mode::shared);
  EXPECT_EQ(late_shared.wait_for(300ms), std::future_status::timeout)
      << "a shared holder overtook a waiting exclusive holder";
  shared.reset();
  EXPECT_EQ(exclusive.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(late_shared.wait_for(200ms), std::future_status::timeout);
  exclusive.get();
  EXPECT_EQ(late_shared.wait_for(5s), std::future_status::ready);
}

TEST_F(DeviceLock, AKilledHolderFreesTheLock) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto l = device_lock::acquire("GPU-0000-test", lock_mode::exclusive);
    ::pause(); // holds the lock until killed
    std::_Exit(l.ok() ? 0 : 1);
  }
  std::this_thread::sleep_for(300ms);
  auto mine = take_later(lock_mode::exclusive);
  EXPECT_EQ(mine.wait_for(200ms), std::future_status::timeout);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(mine.wait_for(5s), std::future_status::ready);
}

TEST_F(DeviceLock, DifferentGpusDoNotShareALock) {
  const auto a = take(lock_mode::exclusive);
  auto b = std::async(std::launch::async, [] {
    return device_lock::acquire("GPU-1111-other", lock_mode::exclusive);
  });
  ASSERT_EQ(b.wait_for(5s), std::future_status::ready);
  EXPECT_TRUE(b.get().ok());
}

TEST_F(DeviceLock, AnUnusableDirectoryIsAClearError) {
  ::setenv("CUGRADE_LOCK_DIR", "/proc/no-such-place/locks", 1);
  const auto l = device_lock::acquire("GPU-0000-test", lock_mode::shared);
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.error().find("CUGRADE_LOCK_DIR"), std::string::npos) << l.error();
}

} // namespace
} // namespace cugrade::process
