// launcher_shares(): which launchers of a runner that timed several take their part of it, and
// which must time again in a runner of their own.

#include "grader/perf/launcher_timing.h"

#include <gtest/gtest.h>

namespace cugrade::perf {
namespace {

constexpr std::size_t cases_per_launcher = 2;

// A run of launchers a, b, c over two cases each, every case reported up to `reported` (in the
// runner's numbering), the log started and readable.
launcher_run shared_run(std::size_t reported) {
  launcher_run run;
  run.target.launcher = "a";
  run.target.more_launchers = {"b", "c"};
  run.target.output_dir = "/tmp/shared";
  run.outcome.log.started = true;
  for (std::size_t index = 0; index < 3 * cases_per_launcher; ++index) {
    case_run c;
    c.tc.name = "case-" + std::to_string(index % cases_per_launcher);
    if (index < reported) {
      protocol::timing_record t;
      t.case_index = index;
      t.event_ms = {1.0 + static_cast<double>(index)};
      c.record = t;
      run.outcome.log.timings.push_back(t);
    }
    run.cases.push_back(std::move(c));
  }
  return run;
}

TEST(LauncherShares, EachLauncherOfAFinishedRunTakesItsOwnCases) {
  auto run = shared_run(6);
  run.outcome.log.finished = true;
  run.outcome.exit_code = 0;
  const auto shares = launcher_shares(run);
  ASSERT_EQ(shares.size(), 3u);
  const std::vector<std::string> names{"a", "b", "c"};
  for (std::size_t j = 0; j < shares.size(); ++j) {
    ASSERT_TRUE(shares[j].has_value()) << names[j];
    const auto& share = *shares[j];
    EXPECT_EQ(share.target.launcher, names[j]);
    EXPECT_TRUE(share.target.more_launchers.empty());
    EXPECT_EQ(share.target.output_dir, "/tmp/shared");
    EXPECT_TRUE(share.finished());
    ASSERT_EQ(share.cases.size(), cases_per_launcher);
    for (std::size_t i = 0; i < cases_per_launcher; ++i) {
      EXPECT_EQ(share.cases[i].tc.name, "case-" + std::to_string(i));
      // The runner's own numbering, which names its saved output files.
      EXPECT_EQ(share.cases[i].record->case_index, j * cases_per_launcher + i);
    }
    ASSERT_EQ(share.outcome.log.timings.size(), cases_per_launcher) << "only its own timings";
    EXPECT_EQ(share.outcome.log.timings.front().case_index, j * cases_per_launcher);
  }
}

TEST(LauncherShares, AFaultLeavesTheFaultingLauncherAndEveryLaterOneToRunAlone) {
  auto run = shared_run(3); // b's second case never reported: the runner died there
  run.outcome.term_signal = 11;
  const auto shares = launcher_shares(run);
  ASSERT_EQ(shares.size(), 3u);
  ASSERT_TRUE(shares[0].has_value());
  EXPECT_TRUE(shares[0]->finished());
  EXPECT_FALSE(shares[1].has_value());
  EXPECT_FALSE(shares[2].has_value());
}

TEST(LauncherShares, ATimeOutIsTheRunningLaunchersOwnAndIsNotWaitedForAgain) {
  auto run = shared_run(3);
  run.outcome.timed_out = true;
  const auto shares = launcher_shares(run);
  ASSERT_EQ(shares.size(), 3u);
  ASSERT_TRUE(shares[0].has_value());
  ASSERT_TRUE(shares[1].has_value()); // b was running: its unfinished round is its result
  EXPECT_FALSE(shares[1]->finished());
  EXPECT_TRUE(shares[1]->outcome.timed_out);
  EXPECT_FALSE(shares[2].has_value()); // c never ran: it runs alone
}

TEST(LauncherShares, AnUnreadableLogGivesNoLauncherItsPart) {
  auto tampered = shared_run(6);
  tampered.outcome.log.tampering = "a line after \"done\"";
  for (const auto& share : launcher_shares(tampered)) {
    EXPECT_FALSE(share.has_value());
  }
  auto unstarted = shared_run(0);
  unstarted.outcome.log.started = false;
  unstarted.outcome.timed_out = true;
  for (const auto& share : launcher_shares(unstarted)) {
    EXPECT_FALSE(share.has_value());
  }
}

TEST(LauncherShares, ARunOfOneLauncherIsItsOwnShare) {
  launcher_run run = shared_run(6);
  run.target.more_launchers.clear();
  run.cases.resize(cases_per_launcher);
  const auto shares = launcher_shares(run);
  ASSERT_EQ(shares.size(), 1u);
  ASSERT_TRUE(shares[0].has_value());
  EXPECT_EQ(shares[0]->cases.size(), cases_per_launcher);
}

} // namespace
} // namespace cugrade::perf
