// Which kernels of a runner shared by every kernel take their outcomes from it (launcher_share):
// only those whose every run completed without a fault, in a whole log.

#include "grader/core/one_runner.h"
#include "reports/report.h"

#include <gtest/gtest.h>

namespace cugrade::grader {
namespace {

constexpr std::size_t cases = 2;
constexpr int runs = 2;

protocol::run_record record(std::size_t case_index, int run) {
  protocol::run_record r;
  r.case_index = case_index;
  r.run = run;
  r.completed = true;
  r.output_file = protocol::output_file_name(case_index, run);
  return r;
}

// A runner that ran `launchers` launchers over two cases, two runs each, to its end.
protocol::runner_log shared_log(std::size_t launchers) {
  protocol::runner_log log;
  log.backend = "gpu";
  log.device = "NVIDIA H100 80GB HBM3";
  log.started = true;
  log.finished = true;
  for (std::size_t i = 0; i < launchers * cases; ++i) {
    for (int run = 0; run < runs; ++run) {
      log.runs.push_back(record(i, run));
    }
  }
  return log;
}

TEST(LauncherShare, EachLauncherGetsItsOwnCasesNumberedFromZero) {
  const auto log = shared_log(3);
  const auto share = launcher_share(log, 1, cases, runs);
  ASSERT_TRUE(share.has_value());
  EXPECT_TRUE(share->started);
  EXPECT_TRUE(share->finished);
  EXPECT_EQ(share->device, "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(share->runs.size(), cases * runs);
  EXPECT_EQ(share->runs.front().case_index, 0u);
  EXPECT_EQ(share->runs.back().case_index, 1u);
  // The outputs are where the runner wrote them: launcher 1's first case was case 2.
  EXPECT_EQ(share->runs.front().output_file, protocol::output_file_name(2, 0));
}

TEST(LauncherShare, AFaultStopsTheLauncherThatFaultedAndEveryOneAfterIt) {
  auto log = shared_log(3);
  // Launcher 1's second case faulted (a sticky error): the runner stopped there.
  log.runs.resize(3 * runs);
  log.runs.back().completed = false;
  log.runs.back().error_kind = reports::fault_kind::illegal_address;
  EXPECT_TRUE(launcher_share(log, 0, cases, runs).has_value());
  EXPECT_FALSE(launcher_share(log, 1, cases, runs).has_value());
  EXPECT_FALSE(launcher_share(log, 2, cases, runs).has_value());
}

TEST(LauncherShare, AFaultThatLeftTheRunnerGoingStillSendsTheKernelToRunAlone) {
  auto log = shared_log(2);
  log.runs[runs * cases].error_kind = reports::fault_kind::out_of_memory; // launcher 1, case 0
  EXPECT_TRUE(launcher_share(log, 0, cases, runs).has_value());
  EXPECT_FALSE(launcher_share(log, 1, cases, runs).has_value());
}

TEST(LauncherShare, AHangLeavesTheOpenCaseAndTheRestToRunAlone) {
  auto log = shared_log(2);
  log.runs.resize(runs * cases + 1); // launcher 1's first case, second run, never ended
  log.open_case = cases;
  log.open_run = 1;
  log.finished = false;
  EXPECT_TRUE(launcher_share(log, 0, cases, runs).has_value());
  EXPECT_FALSE(launcher_share(log, 1, cases, runs).has_value());
}

TEST(LauncherShare, NothingOfALogThatIsNotWholeIsBelieved) {
  auto tampered = shared_log(2);
  tampered.tampering = "a line after done";
  auto missing = shared_log(1);
  missing.missing_launcher = "matmul_tiled";
  auto never = shared_log(2);
  never.started = false;
  for (const auto* log : {&tampered, &missing, &never}) {
    EXPECT_FALSE(launcher_share(*log, 0, cases, runs).has_value());
  }
  EXPECT_FALSE(launcher_share(shared_log(2), 0, 0, runs).has_value());
}

// Launcher 1 of `launchers` hung in its second case's first run after `began` seconds of the
// runner's clock; its first case completed both runs.
protocol::runner_log hung_log(std::size_t launchers, double began) {
  auto log = shared_log(launchers);
  log.runs.resize(runs * (cases + 1));
  log.open_case = cases + 1;
  log.open_run = 0;
  log.finished = false;
  log.began_seconds = {{0, 0.4}, {1, 0.5}, {cases, began}, {cases + 1, began + 0.1}};
  return log;
}

TEST(StoppedLauncherShare, AKernelThatHungWithItsWholeLimitKeepsItsTimeout) {
  const auto log = hung_log(3, 0.8);
  const auto share = stopped_launcher_share(log, 1, cases, runs, 2.0);
  ASSERT_TRUE(share.has_value());
  EXPECT_TRUE(share->started);
  EXPECT_FALSE(share->finished);
  EXPECT_EQ(share->open_case, std::size_t{1}); // its own second case
  EXPECT_EQ(share->open_run, 0);
  ASSERT_EQ(share->runs.size(), static_cast<std::size_t>(runs)); // its first case, both runs
  EXPECT_EQ(share->runs.front().case_index, 0u);
  EXPECT_EQ(share->runs.front().output_file, protocol::output_file_name(cases, 0));
  // Neither the launcher before it (it finished: launcher_share) nor the one after it (it never
  // ran) is the one the limit stopped.
  EXPECT_FALSE(stopped_launcher_share(log, 0, cases, runs, 2.0).has_value());
  EXPECT_FALSE(stopped_launcher_share(log, 2, cases, runs, 2.0).has_value());
  EXPECT_TRUE(launcher_share(log, 0, cases, runs).has_value());
}

TEST(StoppedLauncherShare, AKernelThatBeganLateRunsAloneWithItsWholeLimit) {
  // The launchers before it took 2.5 s of the runner's 2 s beyond the limit.
  EXPECT_FALSE(stopped_launcher_share(hung_log(2, 2.5), 1, cases, runs, 2.0).has_value());
  auto untimed = hung_log(2, 0.8);
  untimed.began_seconds.clear(); // a runner that wrote no clock
  EXPECT_FALSE(stopped_launcher_share(untimed, 1, cases, runs, 2.0).has_value());
}

TEST(StoppedLauncherShare, OnlyAHangInAWholeLogAfterCleanRunsCounts) {
  auto faulted = hung_log(2, 0.8);
  faulted.runs[runs * cases].error_kind = reports::fault_kind::illegal_address;
  EXPECT_FALSE(stopped_launcher_share(faulted, 1, cases, runs, 2.0).has_value());
  auto tampered = hung_log(2, 0.8);
  tampered.tampering = "a second start line";
  EXPECT_FALSE(stopped_launcher_share(tampered, 1, cases, runs, 2.0).has_value());
  EXPECT_FALSE(stopped_launcher_share(shared_log(2), 1, cases, runs, 2.0).has_value()); // finished
}

} // namespace
} // namespace cugrade::grader
