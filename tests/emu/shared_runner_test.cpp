// The shared correctness runner's data path through the real emulator runner, in its sandbox: a
// plan with more_launchers runs every launcher of a compiled submission in one process, and each
// kernel's share of that run (launcher_share), evaluated, gives the same outcome per case as the
// kernel's own runner. On the GPU the grader shares a runner this way (grader/core/one_runner.h);
// emulation keeps one runner per kernel, so this is where the path runs without a GPU.

#include "grader/core/case_evaluation.h"
#include "grader/core/case_plan.h"
#include "grader/core/kernel_run.h"
#include "grader/core/one_runner.h"
#include "grader/process/temp_dir.h"
#include "grader/spec/assignment_spec.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <unistd.h>

namespace cugrade::grader {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> launchers{"matmul_naive", "matmul_tiled", "matmul_dynamic"};

class SharedRunner : public ::testing::Test {
protected:
  void SetUp() override { use("matmul"); }

  void use(const std::string& assignment) {
    auto spec = spec::load_assignment(assignment, CUGRADE_SOURCE_DIR);
    ASSERT_TRUE(spec.ok()) << spec.error();
    m_spec = *spec;
    m_cases = plan_cases(m_spec);
    ASSERT_FALSE(m_cases.empty());
  }

  // Runs `names` of `library` in one runner; nullopt (and a test failure) when it cannot start.
  std::optional<kernel_run> run(const fs::path& library, const std::vector<std::string>& names,
                                const std::string& folder, double limit = 300) {
    auto plan = make_plan(m_spec.problem, names.front(), library, m_dir / folder, m_cases, 2);
    plan.more_launchers.assign(names.begin() + 1, names.end());
    auto r = run_kernel({}, EMU_RUNNER, plan, limit);
    EXPECT_TRUE(r.ok()) << r.error();
    return r ? std::optional<kernel_run>(std::move(*r)) : std::nullopt;
  }

  std::vector<reports::test_status> statuses(const protocol::runner_log& log,
                                              const fs::path& folder, const runner_exit& exit) {
    std::vector<reports::test_status> out;
    for (const auto& c : evaluate_cases(problems::get(m_spec.problem), m_cases, log, folder, exit)) {
      out.push_back(c.status);
    }
    return out;
  }

  // The outcome of each case of `launcher` in its own runner.
  std::vector<reports::test_status> alone(const fs::path& library, const std::string& launcher,
                                          double limit = 300) {
    const auto r = run(library, {launcher}, "alone-" + launcher, limit);
    return r ? statuses(r->log, m_dir / ("alone-" + launcher), r->exit)
             : std::vector<reports::test_status>{};
  }

  process::temp_dir m_tmp{"cugrade-shared-runner"};
  fs::path m_dir = m_tmp.path();
  spec::assignment_spec m_spec;
  std::vector<graded_case> m_cases;
};

TEST_F(SharedRunner, EachKernelsShareGivesWhatItsOwnRunnerGives) {
  const fs::path library = fs::path(EMU_TEST_MODULE_DIR) / "emu_reference_matmul.so";
  const auto shared = run(library, launchers, "shared");
  ASSERT_TRUE(shared.has_value());
  for (std::size_t j = 0; j < launchers.size(); ++j) {
    SCOPED_TRACE(launchers[j]);
    const auto share = launcher_share(shared->log, j, m_cases.size(), 2);
    ASSERT_TRUE(share.has_value());
    const auto mine = statuses(*share, m_dir / "shared", shared->exit);
    EXPECT_EQ(mine, alone(library, launchers[j]));
    EXPECT_EQ(std::count(mine.begin(), mine.end(), reports::test_status::passed),
              static_cast<long>(m_cases.size()));
  }
}

TEST_F(SharedRunner, AKernelThatFaultsAndEveryOneAfterItRunAlone) {
  // matmul_tiled stores past the end of its output on shapes that are not multiples of the tile;
  // the emulator reports the fault and the runner stops there.
  const fs::path library =
      fs::path(EMU_TEST_MODULE_DIR) / "emu_fixture_emu_tiled_no_boundary_check.so";
  const auto shared = run(library, launchers, "shared");
  ASSERT_TRUE(shared.has_value());
  const auto naive = launcher_share(shared->log, 0, m_cases.size(), 2);
  ASSERT_TRUE(naive.has_value());
  EXPECT_EQ(statuses(*naive, m_dir / "shared", shared->exit), alone(library, "matmul_naive"));
  EXPECT_FALSE(launcher_share(shared->log, 1, m_cases.size(), 2).has_value());
  EXPECT_FALSE(launcher_share(shared->log, 2, m_cases.size(), 2).has_value());
  // Alone, the faulting kernel's first fault is an error, as its fixture expects.
  const auto tiled = alone(library, "matmul_tiled");
  EXPECT_NE(std::find(tiled.begin(), tiled.end(), reports::test_status::error), tiled.end());
}

TEST_F(SharedRunner, AKernelThatHangsWithItsWholeLimitTakesItsTimeoutFromThere) {
  // reduce_convergent never ends; reduce_interleaved, before it, passes.
  use("reduction");
  const fs::path library = fs::path(EMU_TEST_MODULE_DIR) / "emu_fixture_grade_infinite_loop.so";
  constexpr double limit = 3;
  constexpr double room = 10; // the runner's start and reduce_interleaved's cases
  const auto shared = run(library, {"reduce_interleaved", "reduce_convergent"}, "shared",
                          limit + room);
  ASSERT_TRUE(shared.has_value());
  ASSERT_TRUE(shared->exit.timed_out);
  const std::size_t n = m_cases.size();
  EXPECT_TRUE(launcher_share(shared->log, 0, n, 2).has_value());
  const auto stopped = stopped_launcher_share(shared->log, 1, n, 2, shared->wall_seconds - limit);
  ASSERT_TRUE(stopped.has_value()) << "reduce_convergent began "
                                   << shared->log.began_seconds.at(n) << " s in";
  runner_exit exit = shared->exit;
  exit.time_limit_seconds = limit;
  exit.launcher = "reduce_convergent";
  const auto mine = statuses(*stopped, m_dir / "shared", exit);
  ASSERT_FALSE(mine.empty());
  EXPECT_EQ(mine.front(), reports::test_status::timeout);
  EXPECT_EQ(mine, alone(library, "reduce_convergent", limit));
  // Had the runner no room beyond the limit, the kernel before it would have used some of it.
  EXPECT_FALSE(stopped_launcher_share(shared->log, 1, n, 2, 0.0).has_value());
}

} // namespace
} // namespace cugrade::grader
