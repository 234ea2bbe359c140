// What each backend grades: on a GPU every group, in emulation all but the gpu_only groups, whose
// share of each kernel's points leaves the maximum with a note saying where it is earned.
#include "grader/core/case_plan.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace cugrade::grader {
namespace {

// The shipped matmul spec (edge weight 2, rectangular weight 1) with its rectangular group
// marked gpu_only.
spec::assignment_spec spec_with_gpu_only_group() {
  auto spec = spec::load_assignment("matmul", CUGRADE_SOURCE_DIR);
  EXPECT_TRUE(spec.ok()) << spec.error();
  auto rectangular =
      std::find_if(spec->groups.begin(), spec->groups.end(),
                   [](const spec::test_group& g) { return g.name == "rectangular"; });
  EXPECT_NE(rectangular, spec->groups.end());
  rectangular->gpu_only = true;
  return *spec;
}

bool plans_group(const std::vector<graded_case>& cases, const std::string& group) {
  return std::any_of(cases.begin(), cases.end(),
                     [&](const graded_case& c) { return c.tc.name.starts_with(group + "/"); });
}

TEST(GradedScope, TheGpuGradesEveryGroup) {
  const auto spec = spec_with_gpu_only_group();
  const auto scope = scope_for_backend(spec, reports::backend_kind::gpu);
  EXPECT_TRUE(scope.notes.empty());
  EXPECT_EQ(scope.spec.groups.size(), spec.groups.size());
  EXPECT_TRUE(plans_group(plan_cases(scope.spec), "rectangular"));
  EXPECT_DOUBLE_EQ(scope.spec.max_score(), spec.max_score());
}

TEST(GradedScope, EmulationLeavesGpuOnlyGroupsAndTheirPointsOut) {
  const auto spec = spec_with_gpu_only_group();
  const auto scope = scope_for_backend(spec, reports::backend_kind::emu);
  const auto cases = plan_cases(scope.spec);
  EXPECT_FALSE(plans_group(cases, "rectangular"));
  EXPECT_TRUE(plans_group(cases, "edge"));
  // Each kernel keeps the edge group's share (2 of weight 3): naive 10 -> 6.67 points, and the
  // edge group is worth what it is worth on the GPU.
  ASSERT_EQ(scope.spec.kernels.size(), spec.kernels.size());
  EXPECT_NEAR(scope.spec.kernels[0].points, 10.0 * 2 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(scope.spec.kernels[1].performance_points, spec.kernels[1].performance_points);
  EXPECT_NEAR(scope.spec.kernels[0].points / scope.spec.total_weight(),
              spec.kernels[0].points / spec.total_weight(), 1e-12);
  // rectangular is a third of 10 + 15 + 15 points.
  ASSERT_EQ(scope.notes.size(), 1u);
  EXPECT_EQ(scope.notes[0], "group \"rectangular\" is graded on a GPU only (gpu_only): it did not "
                            "run in emulation, and its 13.33 points are earned when graded on a "
                            "GPU, so they are not in this grading's maximum");
}

TEST(GradedScope, WithoutGpuOnlyGroupsEmulationGradesTheSpecAsItIs) {
  auto spec = spec::load_assignment("matmul", CUGRADE_SOURCE_DIR);
  ASSERT_TRUE(spec.ok()) << spec.error();
  const auto scope = scope_for_backend(*spec, reports::backend_kind::emu);
  EXPECT_TRUE(scope.notes.empty());
  EXPECT_DOUBLE_EQ(scope.spec.max_score(), spec->max_score());
  EXPECT_EQ(plan_cases(scope.spec).size(), plan_cases(*spec).size());
}

} // namespace
} // namespace cugrade::grader
