// Pinning a grading's runners to one GPU: perf::pinned_devices puts CUDA_VISIBLE_DEVICES into
// the environment of every runner the thread starts, and only that thread's.
#include "grader/perf/runner_call.h"
#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

namespace cugrade::perf {
namespace {

namespace fs = std::filesystem;

// A stand-in runner that prints the CUDA_VISIBLE_DEVICES and CUDA_DEVICE_MAX_CONNECTIONS it was
// given to stderr.
fs::path echo_runner(const fs::path& dir) {
  const auto path = dir / "echo-runner";
  std::ofstream(path) << "#!/bin/sh\necho \"devices=[${CUDA_VISIBLE_DEVICES-unset}]\" >&2\n"
                      << "echo \"queues=[${CUDA_DEVICE_MAX_CONNECTIONS-unset}]\" >&2\n";
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

std::string devices_seen(const fs::path& dir, const std::string& tag) {
  protocol::plan plan;
  plan.output_dir = dir / tag;
  const auto runner = echo_runner(dir);
  plan.library = runner; // the sandbox shows a runner its library's folder: any file will do
  const auto out = run_runner(runner, plan, 30);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error());
  return out.ok() ? out->stderr_tail : "";
}

TEST(PinnedDevices, RunnersOfThePinningThreadGetTheDevice) {
  const process::temp_dir tmp("cugrade-pin-test");
  const auto& dir = tmp.path();
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_NE(devices_seen(dir, "before").find("devices=[unset]"), std::string::npos);
  {
    const pinned_devices pin("1");
    EXPECT_EQ(pinned_devices::current(), "1");
    EXPECT_NE(devices_seen(dir, "pinned").find("devices=[1]"), std::string::npos);
    std::string other_thread;
    std::thread([&] { other_thread = devices_seen(dir, "other"); }).join();
    EXPECT_NE(other_thread.find("devices=[unset]"), std::string::npos) << other_thread;
    {
      const pinned_devices inner("0");
      EXPECT_NE(devices_seen(dir, "inner").find("devices=[0]"), std::string::npos);
    }
    EXPECT_EQ(pinned_devices::current(), "1");
  }
  EXPECT_EQ(pinned_devices::current(), "");
  EXPECT_NE(devices_seen(dir, "after").find("devices=[unset]"), std::string::npos);
}

// Each CUDA work queue is set up and torn down under a lock the machine shares, and a runner
// launches on the default stream only: every runner asks for one queue, whatever the grader's
// own environment says, pinned or not.
TEST(RunnerEnvironment, EveryRunnerAsksForOneWorkQueue) {
  const process::temp_dir tmp("cugrade-queues-test");
  const auto& dir = tmp.path();
  ::setenv("CUDA_DEVICE_MAX_CONNECTIONS", "8", 1);
  EXPECT_NE(devices_seen(dir, "unpinned").find("queues=[1]"), std::string::npos);
  {
    const pinned_devices pin("1");
    const auto seen = devices_seen(dir, "pinned");
    EXPECT_NE(seen.find("queues=[1]"), std::string::npos) << seen;
    EXPECT_NE(seen.find("devices=[1]"), std::string::npos) << seen;
  }
  ::unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
}

} // namespace
} // namespace cugrade::perf
