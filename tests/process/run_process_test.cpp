#include "grader/process/process.h"
#include "grader/process/temp_dir.h"

#include "tests/process/child.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

using namespace cugrade::process;
using cugrade::process::testing::child_options;
using cugrade::process::testing::group_is_gone;
using cugrade::process::testing::is_gone;
using cugrade::process::testing::run_ok;

TEST(RunProcess, ReportsExitCode) {
  const auto result = run_ok(child_options({"exit", "7"}));
  EXPECT_EQ(result.exit_code, 7);
  EXPECT_EQ(result.term_signal, 0);
  EXPECT_EQ(result.shell_status(), 7);
  EXPECT_FALSE(result.succeeded());
  EXPECT_TRUE(run_ok(child_options({"exit", "0"})).succeeded());
}

TEST(RunProcess, ReportsTheSignalThatKilledIt) {
  const auto result = run_ok(child_options({"segv"}));
  EXPECT_EQ(result.term_signal, SIGSEGV);
  EXPECT_EQ(result.exit_code, -1);
  EXPECT_EQ(result.shell_status(), 139);
  EXPECT_FALSE(result.succeeded());
}

TEST(RunProcess, TimeLimitKillsTheChildAndItsGrandchildren) {
  spawn_options options;
  options.argv = {"sh", "-c", "sleep 100 & echo $$ $!; sleep 100"};
  options.time_limit_seconds = 0.5;
  const auto result = run_ok(options);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.term_signal, SIGKILL);
  EXPECT_EQ(result.shell_status(), 137);
  EXPECT_LT(result.wall_seconds, 5.0);
  EXPECT_GE(result.wall_seconds, 0.4);
  std::istringstream pids(result.stdout_text);
  pid_t shell = 0;
  pid_t background = 0;
  ASSERT_TRUE(pids >> shell >> background) << "stdout: " << result.stdout_text;
  EXPECT_TRUE(is_gone(background)) << "background sleep " << background << " survived";
  EXPECT_TRUE(is_gone(shell));
  EXPECT_TRUE(group_is_gone(shell)) << "process group " << shell << " still has live members";
}

namespace {

// Runs `argv` with a time limit of `limit` seconds whose clock starts `start_after` into the run.
process_result run_with_delayed_limit(std::vector<std::string> argv, double limit,
                                      std::chrono::milliseconds start_after) {
  spawn_options options;
  options.argv = std::move(argv);
  options.time_limit_seconds = limit;
  auto clock = std::make_shared<limit_clock>();
  options.limit_starts = clock;
  std::thread starter([clock, start_after] {
    std::this_thread::sleep_for(start_after);
    clock->start();
  });
  auto result = run_ok(options);
  starter.join();
  return result;
}

} // namespace

TEST(RunProcess, ADelayedTimeLimitCountsFromItsClockNotFromTheStart) {
  // The child sleeps 1.5 s; its limit is 1 s, started 0.8 s after it: due at 1.8 s, so it ends.
  const auto result = run_with_delayed_limit({"sleep", "1.5"}, 1.0, std::chrono::milliseconds(800));
  EXPECT_FALSE(result.timed_out) << "killed after " << result.wall_seconds << " s";
  EXPECT_EQ(result.exit_code, 0);
}

TEST(RunProcess, ADelayedTimeLimitStopsTheChildOnceItsClockRuns) {
  const auto result = run_with_delayed_limit({"sleep", "100"}, 0.5, std::chrono::milliseconds(300));
  EXPECT_TRUE(result.timed_out);
  EXPECT_GE(result.wall_seconds, 0.75);
  EXPECT_LT(result.wall_seconds, 5.0);
}

TEST(RunProcess, AChildWhoseClockNeverStartsEndsAtItsWaitLimit) {
  spawn_options options;
  options.argv = {"sleep", "100"};
  options.time_limit_seconds = 50;
  options.limit_starts = std::make_shared<limit_clock>();
  options.wait_limit_seconds = 0.4;
  const auto result = run_ok(options);
  EXPECT_TRUE(result.timed_out);
  EXPECT_LT(result.wall_seconds, 5.0);
}

TEST(LimitClock, KeepsTheFirstStart) {
  limit_clock clock;
  EXPECT_FALSE(clock.started());
  clock.start();
  const auto first = clock.started();
  ASSERT_TRUE(first);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  clock.start();
  EXPECT_EQ(clock.started(), first);
}

TEST(RunProcess, StopGraceSendsSigtermFirstSoTheChildCanSayWhereItWas) {
  spawn_options options;
  options.argv = {"sh", "-c", "trap 'echo stopped; exit 5' TERM; while :; do sleep 0.05; done"};
  options.time_limit_seconds = 0.5;
  options.stop_grace_seconds = 2;
  const auto result = run_ok(options);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.stdout_text, "stopped\n");
  EXPECT_EQ(result.exit_code, 5);
  EXPECT_LT(result.wall_seconds, 2.0) << "it exited on SIGTERM, well before the grace ended";
}

TEST(RunProcess, StopGraceEndsInSigkillWhenTheChildIgnoresSigterm) {
  spawn_options options;
  options.argv = {"sh", "-c", "trap '' TERM; while :; do sleep 0.05; done"};
  options.time_limit_seconds = 0.3;
  options.stop_grace_seconds = 0.5;
  const auto result = run_ok(options);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.term_signal, SIGKILL);
  EXPECT_GE(result.wall_seconds, 0.7);
  EXPECT_LT(result.wall_seconds, 5.0);
}

TEST(RunProcess, BackgroundJobsDieWhenTheChildExits) {
  spawn_options options;
  options.argv = {"sh", "-c", "sleep 100 & echo $!"};
  const auto result = run_ok(options);
  EXPECT_TRUE(result.succeeded());
  EXPECT_LT(result.wall_seconds, 5.0) << "waited for the background job's pipe";
  const pid_t background = std::stoi(result.stdout_text);
  EXPECT_TRUE(is_gone(background)) << "background sleep " << background << " survived";
}

TEST(RunProcess, MissingProgramIsAClearFailure) {
  spawn_options options;
  options.argv = {"cugrade-no-such-program", "--version"};
  const auto result = run_process(options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("cugrade-no-such-program"), std::string::npos) << result.error();
  EXPECT_NE(result.error().find("No such file or directory"), std::string::npos) << result.error();

  options.argv = {"/nonexistent/cugrade-tool"};
  const auto by_path = run_process(options);
  ASSERT_FALSE(by_path.ok());
  EXPECT_NE(by_path.error().find("/nonexistent/cugrade-tool"), std::string::npos);
  EXPECT_NE(by_path.error().find("No such file or directory"), std::string::npos);
  EXPECT_FALSE(run_process(spawn_options{}).ok());
}

TEST(RunProcess, NonExecutableFileIsAClearFailure) {
  const temp_dir dir("cugrade-test");
  const auto script = dir.path() / "not-executable.sh";
  std::ofstream(script) << "#!/bin/sh\nexit 0\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_read |
                                           std::filesystem::perms::owner_write);
  spawn_options options;
  options.argv = {script.string()};
  const auto result = run_process(options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("Permission denied"), std::string::npos) << result.error();
}

TEST(RunProcess, CapturesStdoutAndStderrSeparately) {
  const auto out = run_ok(child_options({"print", "5"}));
  EXPECT_EQ(out.stdout_text, "abcde");
  EXPECT_EQ(out.stderr_text, "");
  const auto err = run_ok(child_options({"stderr", "oops"}));
  EXPECT_EQ(err.stdout_text, "");
  EXPECT_EQ(err.stderr_text, "oops");
  EXPECT_FALSE(err.output_truncated);
}

TEST(RunProcess, TruncatesLargeOutputKeepingHeadAndTail) {
  auto options = child_options({"print", "1000000"});
  options.capture_limit_bytes = 1000;
  const auto result = run_ok(options);
  EXPECT_TRUE(result.succeeded());
  EXPECT_TRUE(result.output_truncated);
  EXPECT_EQ(result.stdout_text.rfind("abcdefghij", 0), 0u);
  EXPECT_NE(result.stdout_text.find("[... 999000 bytes omitted ...]"), std::string::npos);
  // The last byte printed is 'a' + 999999 % 26 = 'n'.
  EXPECT_EQ(result.stdout_text.back(), 'n');
  EXPECT_LT(result.stdout_text.size(), 1100u);
}

TEST(RunProcess, StdinIsEmpty) {
  spawn_options options;
  options.argv = {"cat"};
  options.time_limit_seconds = 10;
  const auto result = run_ok(options);
  EXPECT_TRUE(result.succeeded());
  EXPECT_EQ(result.stdout_text, "");
}

TEST(RunProcess, AddsAndOverridesEnvironment) {
  ::setenv("CUGRADE_TEST_INHERITED", "from-parent", 1);
  auto options = child_options({"env", "CUGRADE_TEST_INHERITED"});
  EXPECT_EQ(run_ok(options).stdout_text, "from-parent\n");
  options.env_add = {{"CUGRADE_TEST_INHERITED", "override"}};
  EXPECT_EQ(run_ok(options).stdout_text, "override\n");
}

TEST(RunProcess, ClearedEnvironmentKeepsOnlyNamedVariables) {
  ::setenv("CUGRADE_TEST_INHERITED", "from-parent", 1);
  ::setenv("CUGRADE_TEST_KEPT", "kept", 1);
  auto options = child_options({"env", "CUGRADE_TEST_INHERITED"});
  options.clear_env = true;
  options.env_keep = {"CUGRADE_TEST_KEPT"};
  EXPECT_EQ(run_ok(options).stdout_text, "<unset>\n");
  options.argv.back() = "CUGRADE_TEST_KEPT";
  EXPECT_EQ(run_ok(options).stdout_text, "kept\n");
  options.argv.back() = "CUGRADE_TEST_ADDED";
  options.env_add = {{"CUGRADE_TEST_ADDED", "added"}};
  EXPECT_EQ(run_ok(options).stdout_text, "added\n");
}

TEST(RunProcess, RunsInTheWorkingDirectory) {
  auto options = child_options({"cwd"});
  options.working_dir = "/tmp";
  EXPECT_EQ(run_ok(options).stdout_text, "/tmp\n");
  options.working_dir = "/nonexistent/cugrade-dir";
  const auto result = run_process(options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("/nonexistent/cugrade-dir"), std::string::npos) << result.error();
}

TEST(RunProcess, PassesOnlyTheInheritedDescriptors) {
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  auto options = child_options({"fdwrite", std::to_string(fds[1]), "report"});
  options.inherit_fds = {fds[1]};
  EXPECT_TRUE(run_ok(options).succeeded());
  ::close(fds[1]);
  char buffer[16] = {};
  EXPECT_EQ(::read(fds[0], buffer, sizeof buffer), 6);
  EXPECT_STREQ(buffer, "report");

  const int leaked = ::open("/dev/null", O_RDONLY); // deliberately not close-on-exec
  ASSERT_GE(leaked, 0);
  EXPECT_EQ(run_ok(child_options({"fdopen", std::to_string(leaked)})).exit_code, 8)
      << "a descriptor not in inherit_fds reached the child";
  ::close(leaked);
  ::close(fds[0]);
}
