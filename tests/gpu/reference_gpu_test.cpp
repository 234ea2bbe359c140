// Every reference launcher on every edge shape and distribution, on the GPU, against the CPU
// reference: the reference is what students are compared with, so it must be right everywhere.
// Runs the runner's own case loop in-process and the grader's own evaluation.

#include "grader/core/case_evaluation.h"
#include "grader/core/case_plan.h"
#include "harness/backends/backend.h"
#include "harness/runner/runner.h"
#include "tests/gpu/no_gpu_reason.h"

#include <cstdlib>
#include <cuda_runtime.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace {

using cugrade::problems::kind;

struct launcher_case {
  kind problem;
  std::string launcher;
};

// Every launcher of every problem kind in the registry.
std::vector<launcher_case> every_launcher() {
  std::vector<launcher_case> cases;
  for (const auto* p : cugrade::problems::all()) {
    for (const auto& launcher : p->launchers()) {
      cases.push_back({p->id(), launcher});
    }
  }
  return cases;
}

using cugrade::testing::no_gpu_reason;

class ReferenceOnGpu : public testing::TestWithParam<launcher_case> {};

TEST_P(ReferenceOnGpu, PassesEveryEdgeShapeAndDistribution) {
  if (const auto why = no_gpu_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const auto [problem, launcher] = GetParam();
  constexpr std::uint64_t seed = 20261121;
  std::vector<cugrade::grader::graded_case> cases;
  for (auto& tc :
       cugrade::problems::make_cases(problem, cugrade::problems::edge_templates(problem), seed)) {
    cases.push_back({0, tc});
  }
  const auto dir = std::filesystem::temp_directory_path() /
                   ("cugrade-gpu-test-" + launcher + "-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  // A device bundle relocates the library: CUGRADE_REFERENCE_LIBRARY overrides the build path.
  const char* env_library = std::getenv("CUGRADE_REFERENCE_LIBRARY");
  const std::filesystem::path library =
      env_library != nullptr ? env_library : CUGRADE_REFERENCE_LIBRARY;
  const auto plan = cugrade::grader::make_plan(problem, launcher, library, dir, cases, 2);
  {
    cugrade::protocol::event_writer events(dir / cugrade::protocol::events_file_name);
    const auto backend = cugrade::backends::make_backend();
    ASSERT_TRUE(cugrade::runner::run_plan(plan, *backend, events));
  }
  const auto log = cugrade::protocol::read_events(dir / cugrade::protocol::events_file_name);
  ASSERT_TRUE(log.finished);
  const auto outcomes =
      cugrade::grader::evaluate_cases(cugrade::problems::get(problem), cases, log, dir, {});
  int passed = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(outcomes[i].status, cugrade::reports::test_status::passed)
        << launcher << " " << cases[i].tc.name << " (seed " << cases[i].tc.seed << "): "
        << (outcomes[i].error_kind ? cugrade::reports::to_string(*outcomes[i].error_kind) : "")
        << " " << outcomes[i].message
        << (outcomes[i].comparison
                ? " mismatches=" + std::to_string(outcomes[i].comparison->mismatches)
                : "");
    passed += outcomes[i].status == cugrade::reports::test_status::passed ? 1 : 0;
  }
  std::cout << launcher << " on " << log.device << ": " << passed << "/" << cases.size()
            << " edge cases passed\n";
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(AllLaunchers, ReferenceOnGpu, testing::ValuesIn(every_launcher()),
                         [](const testing::TestParamInfo<launcher_case>& param_info) {
                           return param_info.param.launcher;
                         });

} // namespace
