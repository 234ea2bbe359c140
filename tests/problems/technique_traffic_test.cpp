// What each problem says the lecture's technique moves through global memory (problem.h,
// expected_traffic), against what the emulator's warp profiler measured for the reference
// kernels on the profile shapes (docs/evidence/insight-parity.md, column "emulated", metric
// global_bytes_per_minimum; Nsight Compute measured the same on an H200).
#include <gtest/gtest.h>

#include "harness/problems/problem.h"

namespace {

namespace problems = cugrade::problems;

double expected_at_profile_shape(problems::kind k, const std::string& launcher) {
  const problems::problem& p = problems::get(k);
  const auto traffic = p.expected_traffic(launcher, p.profile_shape());
  EXPECT_TRUE(traffic.has_value()) << launcher;
  return traffic ? traffic->bytes_per_minimum : -1;
}

TEST(TechniqueTraffic, MatchesTheReferencesMeasuredOnTheProfileShapes) {
  const struct {
    problems::kind kind;
    const char* launcher;
    double measured;
  } references[] = {
      {problems::kind_named("matmul"), "matmul_tiled", 5.667},
      {problems::kind_named("matmul"), "matmul_dynamic", 3.000},
      {problems::kind_named("matmul"), "matmul_naive", 43.000},
      {problems::kind_named("histogram"), "histogram_interleaved", 0.996},
      {problems::kind_named("histogram"), "histogram_privatized", 0.996},
      {problems::kind_named("histogram"), "histogram_sectioned", 1.992},
      {problems::kind_named("reduction"), "reduce_interleaved", 1.000},
      {problems::kind_named("reduction"), "reduce_convergent", 1.000},
      {problems::kind_named("scan"), "scan_brent_kung", 2.051},
      {problems::kind_named("scan"), "scan_kogge_stone", 2.112},
  };
  for (const auto& r : references) {
    // The evidence rounds to three decimals.
    EXPECT_NEAR(expected_at_profile_shape(r.kind, r.launcher), r.measured, 0.0015) << r.launcher;
  }
}

TEST(TechniqueTraffic, TiledMatmulFollowsTheTileWidth) {
  const problems::problem& matmul = problems::get(problems::kind_named("matmul"));
  // (2N/T + 1) / 3 at N = 512: every block column reads all of M, every block row all of N.
  const auto tiled = matmul.expected_traffic("matmul_tiled", {.j = 512, .k = 512, .l = 512});
  ASSERT_TRUE(tiled);
  EXPECT_DOUBLE_EQ(tiled->bytes_per_minimum, (2.0 * 512 / 16 + 1) / 3);
  EXPECT_EQ(tiled->technique, "16x16 tiles");
  const auto dynamic = matmul.expected_traffic("matmul_dynamic", {.j = 512, .k = 512, .l = 512});
  ASSERT_TRUE(dynamic);
  EXPECT_DOUBLE_EQ(dynamic->bytes_per_minimum, (2.0 * 512 / 32 + 1) / 3);
}

TEST(TechniqueTraffic, NoExpectationForAKernelTheProblemDoesNotKnow) {
  for (const problems::problem* p : problems::all()) {
    EXPECT_FALSE(p->expected_traffic("my_own_kernel", p->profile_shape())) << p->name();
    for (const std::string& launcher : p->launchers()) {
      const auto traffic = p->expected_traffic(launcher, p->profile_shape());
      ASSERT_TRUE(traffic) << launcher;
      EXPECT_FALSE(traffic->technique.empty()) << launcher;
      EXPECT_FALSE(traffic->advice.empty()) << launcher;
    }
  }
}

} // namespace
