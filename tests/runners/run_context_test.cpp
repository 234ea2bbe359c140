// Pinning a grading's runners to one GPU: a run_context puts CUDA_VISIBLE_DEVICES into the
// environment of every runner started with it, whichever thread starts it, and no other's.
#include "grader/process/temp_dir.h"
#include "grader/runners/runner_call.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

namespace cugrade::runners {
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

std::string devices_seen(const fs::path& dir, const std::string& tag, const run_context& context) {
  protocol::plan plan;
  plan.problem = problems::kind_named("matmul");
  plan.output_dir = dir / tag;
  const auto runner = echo_runner(dir);
  plan.library = runner; // the sandbox shows a runner its library's folder: any file will do
  const auto out = run_runner(context, runner, plan, 30);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error());
  return out.ok() ? out->stderr_tail : "";
}

TEST(RunContext, RunnersStartedWithAContextGetItsDevice) {
  const process::temp_dir tmp("cugrade-pin-test");
  const auto& dir = tmp.path();
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_NE(devices_seen(dir, "unpinned", {}).find("devices=[unset]"), std::string::npos);
  const run_context pinned{"1"};
  EXPECT_NE(devices_seen(dir, "pinned", pinned).find("devices=[1]"), std::string::npos);
  // Another thread given the context runs its runners there too, with nothing copied by hand.
  std::string other_thread;
  std::thread([&] { other_thread = devices_seen(dir, "other", pinned); }).join();
  EXPECT_NE(other_thread.find("devices=[1]"), std::string::npos) << other_thread;
  EXPECT_NE(devices_seen(dir, "other-gpu", run_context{"0"}).find("devices=[0]"),
            std::string::npos);
  EXPECT_NE(devices_seen(dir, "after", {}).find("devices=[unset]"), std::string::npos);
}

TEST(RunContext, EnvironmentNamesThePinnedDeviceOnlyWhenThereIsOne) {
  const auto unpinned = runner_environment({});
  ASSERT_EQ(unpinned.size(), 1U);
  EXPECT_EQ(unpinned.front().first, "CUDA_DEVICE_MAX_CONNECTIONS");
  const auto pinned = runner_environment(run_context{"2"});
  ASSERT_EQ(pinned.size(), 2U);
  EXPECT_EQ(pinned.back(), (std::pair<std::string, std::string>{"CUDA_VISIBLE_DEVICES", "2"}));
}

// Each CUDA work queue is set up and torn down under a lock the machine shares, and a runner
// launches on the default stream only: every runner asks for one queue, whatever the grader's
// own environment says, pinned or not.
TEST(RunnerEnvironment, EveryRunnerAsksForOneWorkQueue) {
  const process::temp_dir tmp("cugrade-queues-test");
  const auto& dir = tmp.path();
  ::setenv("CUDA_DEVICE_MAX_CONNECTIONS", "8", 1);
  EXPECT_NE(devices_seen(dir, "unpinned", {}).find("queues=[1]"), std::string::npos);
  const auto seen = devices_seen(dir, "pinned", run_context{"1"});
  EXPECT_NE(seen.find("queues=[1]"), std::string::npos) << seen;
  EXPECT_NE(seen.find("devices=[1]"), std::string::npos) << seen;
  ::unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
}

} // namespace
} // namespace cugrade::runners
