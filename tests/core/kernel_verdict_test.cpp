#include "grader/core/kernel_verdict.h"

#include "grader/spec/assignment_spec.h"
#include "tests/core/core_test_support.h"

#include <gtest/gtest.h>

namespace cugrade::grader {
namespace {

using namespace testing_support;
using reports::fault_kind;
using reports::hint_code;
using reports::kernel_status;

spec::assignment_spec load(const char* name) {
  auto s = spec::load_assignment(name, CUGRADE_SOURCE_DIR);
  if (!s) {
    ADD_FAILURE() << s.error();
    return {};
  }
  return *s;
}

const spec::kernel_spec& kernel_named(const spec::assignment_spec& s, const std::string& name) {
  for (const auto& k : s.kernels) {
    if (k.name == name) {
      return k;
    }
  }
  throw std::runtime_error("no kernel " + name);
}

TEST(KernelVerdict, AllPassedEarnsEveryCorrectnessPointAndNoHints) {
  const auto s = load("reduction");
  const auto cases = plan_cases(s);
  const std::vector<case_outcome> outcomes(cases.size(), passed());
  const auto& kernel = kernel_named(s, "reduce_convergent");
  const auto k = kernel_verdict(s, kernel, cases, outcomes);
  EXPECT_EQ(k.status, kernel_status::passed);
  EXPECT_DOUBLE_EQ(k.score, kernel.points);
  EXPECT_TRUE(k.diagnosis.empty());
  EXPECT_FALSE(k.error_kind);
}

TEST(KernelVerdict, GroupsCountTheirPassedCasesAndScoreAllOrNothing) {
  const auto s = load("reduction");
  const auto cases = plan_cases(s);
  std::vector<case_outcome> outcomes(cases.size(), passed());
  outcomes[0] = failed();
  const auto k = kernel_verdict(s, kernel_named(s, "reduce_convergent"), cases, outcomes);
  EXPECT_EQ(k.status, kernel_status::failed);
  ASSERT_FALSE(k.groups.empty());
  EXPECT_EQ(k.groups[0].cases_passed + 1, k.groups[0].cases);
  EXPECT_FALSE(k.groups[0].passed);
  EXPECT_DOUBLE_EQ(k.groups[0].score, 0);
  EXPECT_FALSE(k.diagnosis.empty());
}

TEST(KernelVerdict, AFaultIsToldOnceAndItsTestsReferToIt) {
  const auto s = load("histogram");
  const auto cases = plan_cases(s);
  std::vector<case_outcome> outcomes(cases.size(), passed());
  const std::string long_message(400, 'x');
  outcomes[0] = fault(fault_kind::barrier_divergence, long_message + " at histogram.cu:15");
  outcomes[1] = outcomes[0];
  outcomes[2] = outcomes[0];
  const auto k = kernel_verdict(s, kernel_named(s, "histogram_privatized"), cases, outcomes);
  EXPECT_EQ(k.status, kernel_status::error);
  EXPECT_EQ(k.error_kind, fault_kind::barrier_divergence);
  ASSERT_FALSE(k.diagnosis.empty());
  EXPECT_EQ(k.diagnosis[0].code, hint_code::barrier_divergence);
  EXPECT_EQ(k.diagnosis[0].location, "histogram.cu:15");
  EXPECT_EQ(k.diagnosis[0].message.find(long_message), std::string::npos);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(k.tests[i].message.find(long_message), std::string::npos) << k.tests[i].message;
    EXPECT_NE(k.tests[i].message.find("barrier_divergence"), std::string::npos);
  }
}

TEST(KernelVerdict, TimeoutHasNoErrorKindButAHint) {
  const auto s = load("reduction");
  const auto cases = plan_cases(s);
  std::vector<case_outcome> outcomes(cases.size());
  outcomes[0].status = reports::test_status::timeout;
  outcomes[0].error_kind = fault_kind::timeout;
  outcomes[0].message = "the kernel did not finish";
  const auto k = kernel_verdict(s, kernel_named(s, "reduce_convergent"), cases, outcomes);
  EXPECT_EQ(k.status, kernel_status::timeout);
  EXPECT_FALSE(k.error_kind);
  ASSERT_FALSE(k.diagnosis.empty());
  EXPECT_EQ(k.diagnosis[0].code, hint_code::timeout);
}

TEST(KernelVerdict, NotRunKernelsListTheirGroupsWithTheReason) {
  const auto s = load("matmul");
  const auto k = kernel_not_run(s, kernel_named(s, "matmul_tiled"), kernel_status::missing,
                                {hint_code::missing_launcher, "not defined"});
  EXPECT_EQ(k.status, kernel_status::missing);
  EXPECT_EQ(k.groups.size(), s.groups.size());
  ASSERT_EQ(k.diagnosis.size(), 1u);
  EXPECT_EQ(k.diagnosis[0].code, hint_code::missing_launcher);
  EXPECT_DOUBLE_EQ(k.score, 0);
}

} // namespace
} // namespace cugrade::grader
