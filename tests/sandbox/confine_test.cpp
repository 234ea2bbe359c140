// Confined runs for real (bwrap must work here, as in CI): what a child can and cannot do.
// The same tests run again as an ordinary user (uid 65534) when this process is root.

#include "grader/process/temp_dir.h"
#include "grader/sandbox/sandbox.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

namespace cugrade::sandbox {
namespace {

namespace fs = std::filesystem;

struct probe_run {
  std::string out;
  process::process_result result;
};

probe_run run_probe(role kind, const std::vector<std::string>& args,
                    const std::vector<fs::path>& writable = {}, std::size_t memory = 1u << 30) {
  process::spawn_options options;
  options.argv = {CUGRADE_SANDBOX_PROBE};
  options.argv.insert(options.argv.end(), args.begin(), args.end());
  options.time_limit_seconds = 30;
  profile view;
  view.kind = kind;
  view.writable = writable;
  view.memory_bytes = memory;
  auto box = confine(view, options);
  EXPECT_TRUE(box) << (box ? "" : box.error());
  auto result = process::run_process(options);
  EXPECT_TRUE(result) << (result ? "" : result.error());
  return {result ? result->stdout_text : "", result ? *result : process::process_result{}};
}

class Confined : public testing::Test {
protected:
  void SetUp() override {
    if (!probe().works) {
      FAIL() << "bubblewrap must work where the tests run (CI installs it): " << probe().problem;
    }
  }
};

TEST_F(Confined, RunsAsNobodyInItsOwnPidNamespace) {
  const auto r = run_probe(role::runner, {"id"});
  EXPECT_TRUE(r.result.succeeded()) << r.result.stderr_text;
  // bwrap's own init is pid 1; the program is its child.
  EXPECT_EQ(r.out, "uid 65534 gid 65534 pid 2\n");
}

TEST_F(Confined, SeesNoHostFilesAndCannotWriteOutside) {
  EXPECT_EQ(run_probe(role::runner, {"read", "/etc/passwd"}).out.rfind("denied", 0), 0u);
  EXPECT_EQ(run_probe(role::runner, {"read", "/etc/hostname"}).out.rfind("denied", 0), 0u);
  const process::temp_dir outside("sandbox-outside");
  const auto target = outside.path() / "written.txt";
  const auto r = run_probe(role::compiler, {"write", target.string()});
  EXPECT_EQ(r.out.rfind("ok", 0), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(target));
  EXPECT_EQ(run_probe(role::runner, {"write", "/usr/cugrade-probe"}).out.rfind("denied", 0), 0u);
}

TEST_F(Confined, WritesOnlyIntoItsWritableFolder) {
  const process::temp_dir work("sandbox-work");
  const auto target = work.path() / "out.txt";
  const auto r = run_probe(role::runner, {"write", target.string()}, {work.path()});
  EXPECT_EQ(r.out, "ok " + target.string() + "\n");
  EXPECT_TRUE(fs::exists(target));
}

TEST_F(Confined, GetsACleanEnvironment) {
  ::setenv("CUGRADE_PROBE_SECRET", "do-not-leak", 1);
  const auto r = run_probe(role::runner, {"env", "CUGRADE_PROBE_SECRET"});
  ::unsetenv("CUGRADE_PROBE_SECRET");
  EXPECT_EQ(r.out, "CUGRADE_PROBE_SECRET=(unset)\n");
}

TEST_F(Confined, HasNoNetworkButUnixSockets) {
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  socklen_t size = sizeof address;
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &size), 0);
  const auto port = std::to_string(ntohs(address.sin_port));
  for (const role kind : {role::compiler, role::runner}) {
    EXPECT_EQ(run_probe(kind, {"connect", port}).out.rfind("denied", 0), 0u);
  }
  EXPECT_EQ(run_probe(role::runner, {"unix"}).out, "ok socketpair\n");
  ::close(listener);
}

TEST_F(Confined, RunnersMakeThreadsButNoProcesses) {
  EXPECT_EQ(run_probe(role::runner, {"thread"}).out, "ok thread\n");
  EXPECT_EQ(run_probe(role::runner, {"fork"}).out, "denied Operation not permitted\n");
  EXPECT_EQ(run_probe(role::tool, {"fork"}).out, "denied Operation not permitted\n");
  EXPECT_EQ(run_probe(role::compiler, {"fork"}).out, "ok forked\n");
  EXPECT_EQ(run_probe(role::gpu_runner, {"memfd"}).out, "ok memfd\n");
}

// compute-sanitizer makes named pipes to talk to the runner it launches (seen on an H100: it
// exited 13, "Error launching target app", when mkfifo was refused).
TEST_F(Confined, OnlyASanitizerWrapperMakesNamedPipesAndNoRoleMakesDevices) {
  const process::temp_dir work("sandbox-fifo");
  const auto pipe = (work.path() / "pipe").string();
  EXPECT_EQ(run_probe(role::runner, {"fifo", pipe}, {work.path()}).out,
            "denied Operation not permitted\n");
  EXPECT_EQ(run_probe(role::compiler, {"fifo", pipe}, {work.path()}).out,
            "denied Operation not permitted\n");
  EXPECT_EQ(run_probe(role::gpu_wrapper, {"fifo", pipe}, {work.path()}).out, "ok fifo\n");
  EXPECT_TRUE(fs::is_fifo(pipe));
  const auto node = (work.path() / "null").string();
  EXPECT_EQ(run_probe(role::gpu_wrapper, {"node", node}, {work.path()}).out,
            "denied Operation not permitted\n");
  EXPECT_FALSE(fs::exists(node));
}

TEST_F(Confined, CannotTraceOrSignalTheGrader) {
  EXPECT_EQ(run_probe(role::runner, {"ptrace"}).out, "denied Operation not permitted\n");
  const auto r = run_probe(role::runner, {"kill", std::to_string(::getpid())});
  EXPECT_EQ(r.out.rfind("denied", 0), 0u) << r.out; // not even visible in its PID namespace
}

TEST_F(Confined, AMemoryHogMeetsItsCeiling) {
  const auto r = run_probe(role::runner, {"alloc", "1024"}, {}, std::size_t{256} << 20);
  EXPECT_FALSE(r.out == "ok allocated\n" && r.result.succeeded()) << r.out;
}

// Inside, the one node is the driver's only GPU: device 0. Passing the host's index on (3)
// left the runner with no device on a machine's second GPU (found on two H200s).
TEST_F(Confined, AGpuRunnerGetsTheNodeOfItsVisibleDeviceAsDeviceZero) {
  ::setenv("CUDA_VISIBLE_DEVICES", "3", 1);
  process::spawn_options options;
  options.argv = {CUGRADE_SANDBOX_PROBE, "id"};
  profile view;
  view.kind = role::gpu_runner;
  auto box = confine(view, options);
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  ASSERT_TRUE(box) << box.error();
  const auto& argv = options.argv;
  EXPECT_NE(std::find(argv.begin(), argv.end(), "/dev/nvidia3"), argv.end());
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "/dev/nvidia0"), argv.end());
  const std::vector<std::string> passed{"--setenv", "CUDA_VISIBLE_DEVICES", "0"};
  EXPECT_NE(std::search(argv.begin(), argv.end(), passed.begin(), passed.end()), argv.end());
  const std::vector<std::string> host_index{"--setenv", "CUDA_VISIBLE_DEVICES", "3"};
  EXPECT_EQ(std::search(argv.begin(), argv.end(), host_index.begin(), host_index.end()),
            argv.end());
}

// A tool (nm) cannot fork, so its address-space limit is its ceiling: no cgroup to move into.
TEST_F(Confined, AToolGetsAnAddressSpaceLimitNotACgroup) {
  process::spawn_options options;
  options.argv = {CUGRADE_SANDBOX_PROBE, "id"};
  profile view;
  view.kind = role::tool;
  view.memory_bytes = std::size_t{1} << 30;
  auto box = confine(view, options);
  ASSERT_TRUE(box) << box.error();
  EXPECT_EQ(box->ceiling_kind(), "address-space limit");
  EXPECT_TRUE(options.cgroup_procs_files.empty());
  EXPECT_EQ(options.address_space_bytes, std::size_t{1} << 30);
}

TEST(SandboxMode, UnconfinedLeavesTheSpawnAlone) {
  set_mode(mode::unconfined);
  process::spawn_options options;
  options.argv = {"true"};
  auto box = confine(profile{}, options);
  set_mode(mode::confined);
  ASSERT_TRUE(box);
  EXPECT_EQ(options.argv, std::vector<std::string>{"true"});
  EXPECT_EQ(box->ceiling_kind(), "none");
}

TEST(SandboxMode, ReportsBubblewrapAndItsVersion) {
  ASSERT_TRUE(probe().works) << probe().problem;
  EXPECT_EQ(environment_word().rfind("bubblewrap ", 0), 0u) << environment_word();
  set_mode(mode::unconfined);
  EXPECT_EQ(environment_word(), "none");
  set_mode(mode::confined);
}

// Runs this suite again as uid/gid 65534 (an ordinary user) when we are root.
TEST(AsOrdinaryUser, ConfinedRunsWorkToo) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "already an ordinary user (uid " << ::geteuid() << "): the suite above is it";
  }
  const char* self = CUGRADE_SANDBOX_TESTS;
  if (::access(self, X_OK) != 0 || ::access(CUGRADE_SANDBOX_PROBE, X_OK) != 0) {
    GTEST_SKIP() << "the test binaries are not reachable here";
  }
  process::spawn_options options;
  options.argv = {"setpriv",
                  "--reuid=65534",
                  "--regid=65534",
                  "--clear-groups",
                  self,
                  "--gtest_filter=Confined.*:SandboxMode.*"};
  options.working_dir = "/";
  options.time_limit_seconds = 300;
  auto r = process::run_process(options);
  ASSERT_TRUE(r) << r.error();
  const std::string all = r->stdout_text + r->stderr_text;
  if (r->exit_code != 0 && all.find("Permission denied") != std::string::npos &&
      all.find("[ RUN") == std::string::npos) {
    GTEST_SKIP() << "uid 65534 cannot reach the test binaries on this machine: " << all;
  }
  EXPECT_EQ(r->exit_code, 0) << all;
  EXPECT_NE(all.find("[  PASSED  ]"), std::string::npos) << all;
}

} // namespace
} // namespace cugrade::sandbox
