// Timing runners started ahead of their turn (grader/runners/runner_call.h, gated_runner; the
// runner's side is harness/runner/gate.h): the real runner program over the fake backend makes
// its "device", says it is ready and runs nothing until it is let go; cancelled, it runs nothing
// at all; its time limit counts from the go, not from its start.

#include "grader/perf/benchmark_plan.h"
#include "grader/perf/launcher_timing.h"
#include "grader/process/temp_dir.h"
#include "grader/runners/runner_call.h"
#include "harness/core/file_io.h"
#include "harness/protocol/protocol.h"
#include "harness/runner/gate.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

namespace cugrade::perf {
namespace {

namespace fs = std::filesystem;

const fs::path gate_fakes = CUGRADE_PERF_FAKES_DIR; // perf_fake_runner and libperf_fake_*.so

class RunnerGate : public ::testing::Test {
protected:
  void SetUp() override {
    m_request = default_timing_request();
    m_request.warmup_seconds = 0;
    m_request.min_seconds = 0.01;
    m_request.max_seconds = 0.2;
  }

  timing_target target() const {
    timing_target t;
    t.runner = gate_fakes / "perf_fake_runner";
    t.library = gate_fakes / "libperf_fake_fast.so";
    t.launcher = "histogram_privatized";
    t.output_dir = m_dir / "run";
    return t;
  }
  std::vector<problems::test_case> cases() const {
    return {{"20000/uniform", problems::kind_named("histogram"), {.n = 20000}, "uniform", 7}};
  }
  protocol::plan plan() const {
    const auto t = target();
    return timing_plan(problems::kind_named("histogram"), t.launcher, t.library, t.output_dir,
                       cases(), m_request);
  }
  std::string events() const {
    const auto text = read_file(m_dir / "run" / protocol::events_file_name);
    return text ? *text : std::string();
  }

  process::temp_dir m_tmp{"cugrade-gate"};
  fs::path m_dir = m_tmp.path();
  protocol::timing_request m_request;
};

TEST_F(RunnerGate, ARunnerWaitsAtItsGateUntilItIsLetGo) {
  auto started =
      start_timed_launcher(problems::kind_named("histogram"), target(), cases(), m_request);
  ASSERT_TRUE(started.ok()) << started.error();
  ASSERT_TRUE(started->runner->wait_ready(60)) << "the runner never said it was ready";
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(events(), "") << "the runner ran its plan before it was let go";
  auto run = run_started_launcher(*started);
  ASSERT_TRUE(run.ok()) << run.error();
  EXPECT_TRUE(run->outcome.clean()) << run->outcome.ending();
  EXPECT_TRUE(run->finished());
  EXPECT_NE(events().find("\"event\":\"start\""), std::string::npos) << events();
}

TEST_F(RunnerGate, ACancelledRunnerRunsNothingAndExits) {
  auto runner = runners::gated_runner::start({}, gate_fakes / "perf_fake_runner", plan(), 60);
  ASSERT_TRUE(runner.ok()) << runner.error();
  ASSERT_TRUE((*runner)->wait_ready(60));
  const auto asked = std::chrono::steady_clock::now();
  (*runner)->cancel();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count(), 10.0);
  EXPECT_EQ(events(), "");
  runner->reset(); // dropping a cancelled runner is fine
}

TEST_F(RunnerGate, DroppingARunnerThatWasNotLetGoCancelsIt) {
  {
    auto runner = runners::gated_runner::start({}, gate_fakes / "perf_fake_runner", plan(), 60);
    ASSERT_TRUE(runner.ok()) << runner.error();
  } // dropped at once, perhaps before it was ready
  EXPECT_EQ(events(), "");
}

TEST_F(RunnerGate, ItsTimeLimitCountsFromTheGo) {
  // A 1.5 s limit, and 2.5 s at the gate first: the run still has its whole limit.
  auto runner = runners::gated_runner::start({}, gate_fakes / "perf_fake_runner", plan(), 1.5);
  ASSERT_TRUE(runner.ok()) << runner.error();
  ASSERT_TRUE((*runner)->wait_ready(60));
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  const auto outcome = (*runner)->go();
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_FALSE(outcome->timed_out);
  EXPECT_TRUE(outcome->clean()) << outcome->ending();
}

TEST_F(RunnerGate, ARunnerThatCannotStartIsNeverReady) {
  auto runner = runners::gated_runner::start({}, m_dir / "no-such-runner", plan(), 60);
  if (!runner.ok()) {
    SUCCEED() << "refused at once: " << runner.error();
    return;
  }
  EXPECT_FALSE((*runner)->wait_ready(30));
  const auto outcome = (*runner)->go();
  EXPECT_FALSE(outcome.ok() && outcome->clean());
}

TEST(RunnerGateProtocol, TheRunnerGoesOnOnlyWhenToldToGo) {
  for (const char answer : {protocol::gate_go, 'x'}) {
    int ends[2] = {-1, -1};
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0);
    std::thread grader([&] {
      char said = 0;
      EXPECT_EQ(::read(ends[0], &said, 1), 1);
      EXPECT_EQ(said, protocol::gate_ready);
      EXPECT_EQ(::write(ends[0], &answer, 1), 1);
    });
    EXPECT_EQ(runner::wait_at_gate(ends[1]), answer == protocol::gate_go);
    grader.join();
    ::close(ends[0]);
  }
}

TEST(RunnerGateProtocol, AGraderThatClosesTheGateCancelsTheRun) {
  int ends[2] = {-1, -1};
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0);
  ::close(ends[0]);
  EXPECT_FALSE(runner::wait_at_gate(ends[1])); // and no SIGPIPE ends the test
}

} // namespace
} // namespace cugrade::perf
