// Finding the largest size a kernel gets right with a few extra gradings, over a fake grader.
#include "tests/core/core_test_support.h"

#include "grader/core/size_probe.h"

#include <gtest/gtest.h>

namespace cugrade::grader {
namespace {

using namespace testing_support;
using reports::hint_code;

// A scan right up to `limit`, graded on the assignment's visible sizes.
struct scan_kernel {
  long limit = 0;
  kernel_results k;
  std::vector<long> graded; ///< the sizes the fake grader was asked for

  explicit scan_kernel(long right_up_to) : limit(right_up_to) {
    k.problem = problems::kind_named("scan");
    k.kernel = "scan_kogge_stone";
    for (const long n : {1L, 7L, 33L, 1025L, 65537L, 131071L, 1048577L}) {
      k.add(n_case(k.problem, n, "real_offset"), n <= limit ? passed() : failed());
    }
  }
  std::optional<size_limit> bracket() const {
    return size_bracket(k.problem, k.cases, k.outcomes, k.hidden);
  }
  grade_one_case grader() {
    return [this](const graded_case& c) -> std::optional<bool> {
      graded.push_back(c.tc.dims.n);
      EXPECT_EQ(c.tc.distribution, "real_offset");
      EXPECT_NE(c.tc.name.find("size probe"), std::string::npos);
      return c.tc.dims.n <= limit;
    };
  }
};

TEST(SizeProbe, AOneBlockSecondLevelIsFoundExactlyWithinTheBudget) {
  scan_kernel s(512 * 513);
  const auto bracket = s.bracket();
  ASSERT_TRUE(bracket.has_value());
  EXPECT_EQ(bracket->largest_passing, 131071);
  EXPECT_EQ(bracket->smallest_failing, 1048577);
  const auto found = narrow_size_limit(*bracket, s.grader());
  EXPECT_TRUE(found.exact());
  EXPECT_EQ(found.largest_passing, 262656);
  EXPECT_EQ(found.smallest_failing, 262657);
  EXPECT_LE(found.probes, max_size_probes);
  EXPECT_EQ(found.probes, s.graded.size());
  for (const long n : s.graded) {
    EXPECT_LT(n, 1048577); // every extra size is smaller than the failing one tested
  }
}

TEST(SizeProbe, ALimitOfNoFixedStructureIsNarrowedByHalvesAndStopsAtTheBudget) {
  scan_kernel s(300001);
  const auto found = narrow_size_limit(*s.bracket(), s.grader());
  EXPECT_EQ(found.probes, max_size_probes);
  EXPECT_LE(found.largest_passing, 300001);
  EXPECT_GT(found.smallest_failing, 300001);
  EXPECT_LT(found.smallest_failing - found.largest_passing, 1048577 - 131071);
}

TEST(SizeProbe, ARunThatCannotBeJudgedEndsTheSearch) {
  scan_kernel s(512 * 513);
  int calls = 0;
  const auto found = narrow_size_limit(*s.bracket(), [&](const graded_case&) {
    ++calls;
    return std::optional<bool>();
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(found.largest_passing, 131071);
  EXPECT_EQ(found.smallest_failing, 1048577);
}

TEST(SizeProbe, NoBracketWithoutASizeLimitOrForMatrices) {
  scan_kernel everything_fails(0);
  EXPECT_FALSE(everything_fails.bracket().has_value());
  kernel_results m;
  m.add(matmul_case(64, 64, 64), passed());
  m.add(matmul_case(1000, 1000, 1000), failed());
  EXPECT_FALSE(size_bracket(m.problem, m.cases, m.outcomes, m.hidden).has_value());
}

TEST(SizeProbe, HiddenCasesNeitherBracketNorShowInTheWords) {
  scan_kernel s(512 * 513);
  s.k.add(n_case(s.k.problem, 524289, "real_offset"), failed(), true);
  EXPECT_EQ(s.bracket()->smallest_failing, 1048577);
}

TEST(SizeProbe, TheMeasuredLimitReplacesTheTestedSizesInTheHint) {
  scan_kernel s(512 * 513);
  reports::kernel_report k;
  k.diagnosis = s.k.hints();
  ASSERT_FALSE(k.diagnosis.empty());
  ASSERT_EQ(k.diagnosis[0].code, hint_code::size_threshold);
  const auto found = narrow_size_limit(*s.bracket(), s.grader());
  name_size_limit(k, s.k.problem, found);
  EXPECT_NE(k.diagnosis[0].message.find("up to n = 262,656"), std::string::npos)
      << k.diagnosis[0].message;
  EXPECT_NE(k.diagnosis[0].message.find("from n = 262,657"), std::string::npos);
  EXPECT_NE(k.diagnosis[0].message.find("second level"), std::string::npos);
}

} // namespace
} // namespace cugrade::grader
