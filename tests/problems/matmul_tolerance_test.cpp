// The tolerance policy's promises on the whole matmul edge set: float32 in any order passes;
// tf32, half, a dropped or doubled k-term, NaN and unwritten elements fail.
#include "harness/problems/problem.h"
#include "tests/problems/float_models.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>

namespace cugrade::problems {
namespace {

using namespace testing;

const problem& matmul_problem = get(kind_named("matmul"));
constexpr std::uint64_t tolerance_seed = 0xc0ffee;

struct prepared {
  test_case c;
  std::vector<buffer> in;
  std::vector<double> expected;
};

prepared prepare(const test_case& c) {
  auto in = matmul_problem.generate(c);
  auto expected = matmul_problem.reference(c, in);
  return {c, std::move(in), std::move(expected)};
}

comparison check(const prepared& p, const std::vector<float>& got) {
  return matmul_problem.compare(p.c, p.in, p.expected, f32_buffer(got));
}

/// The names of the edge cases (of `distribution`, or all if empty) on which `model` fails.
std::vector<std::string>
failing_cases(const std::string& distribution,
              const std::function<std::vector<float>(const prepared&)>& model, bool stop_at_first) {
  std::vector<std::string> failed;
  for (const auto& c :
       make_cases(kind_named("matmul"), edge_templates(kind_named("matmul")), tolerance_seed)) {
    if (!distribution.empty() && c.distribution != distribution) {
      continue;
    }
    const auto p = prepare(c);
    if (!check(p, model(p)).passed) {
      failed.push_back(c.name);
      if (stop_at_first) {
        break;
      }
    }
  }
  return failed;
}

TEST(MatmulTolerance, Float32InAnyOrderPassesEveryEdgeCase) {
  for (const auto& c :
       make_cases(kind_named("matmul"), edge_templates(kind_named("matmul")), tolerance_seed)) {
    SCOPED_TRACE(c.name + " seed " + std::to_string(c.seed));
    const auto p = prepare(c);
    const auto forward = check(p, matmul_f32(p.in, c.dims, false));
    EXPECT_TRUE(forward.passed) << forward.note;
    const auto reverse = check(p, matmul_f32(p.in, c.dims, true));
    EXPECT_TRUE(reverse.passed) << reverse.note;
    const auto split = check(p, matmul_f32_split(p.in, c.dims));
    EXPECT_TRUE(split.passed) << split.note;
    if (c.distribution == "integer") {
      EXPECT_EQ(forward.max_abs_error, 0.0); // exact, as the policy claims
    }
  }
}

TEST(MatmulTolerance, Tf32InputsFailOnSmallK) {
  const auto tf32 = [](float x) { return round_mantissa(x, 10); };
  const auto failed = failing_cases(
      "real",
      [&](const prepared& p) { return matmul_model(p.in, p.c.dims, false, tf32, identity); },
      false);
  std::printf("tf32 fails %zu of 21 real edge cases\n", failed.size());
  EXPECT_FALSE(failed.empty()) << "seed " << tolerance_seed;
  EXPECT_NE(std::ranges::find(failed, "70x1x90/real"), failed.end());
  EXPECT_NE(std::ranges::find(failed, "17x17x17/real"), failed.end());
}

TEST(MatmulTolerance, HalfPrecisionFails) {
  const auto half = [](float x) { return round_mantissa(x, 10); };
  const auto failed = failing_cases(
      "", [&](const prepared& p) { return matmul_model(p.in, p.c.dims, false, half, half); }, true);
  EXPECT_FALSE(failed.empty()) << "seed " << tolerance_seed;
}

TEST(MatmulTolerance, DroppedKTermFailsOnRealAndIntegerData) {
  const auto drop_last = [](const prepared& p) {
    return matmul_rounded_exact(p.in, p.c.dims, p.c.dims.k - 1, -1);
  };
  EXPECT_FALSE(failing_cases("real", drop_last, true).empty()) << "seed " << tolerance_seed;
  EXPECT_FALSE(failing_cases("integer", drop_last, true).empty()) << "seed " << tolerance_seed;
}

TEST(MatmulTolerance, DoubleCountedKTermFails) {
  const auto twice_first = [](const prepared& p) {
    return matmul_rounded_exact(p.in, p.c.dims, -1, 0);
  };
  EXPECT_FALSE(failing_cases("real", twice_first, true).empty()) << "seed " << tolerance_seed;
  EXPECT_FALSE(failing_cases("integer", twice_first, true).empty()) << "seed " << tolerance_seed;
}

TEST(MatmulTolerance, ExactIntegerComparisonCatchesAnyDrop) {
  // Every integer case whose dropped term is non-zero somewhere must fail, however large k is.
  const auto c = make_cases(kind_named("matmul"), {{{.j = 257, .k = 257, .l = 257}, "integer"}},
                            tolerance_seed)[0];
  const auto p = prepare(c);
  const auto result = check(p, matmul_rounded_exact(p.in, c.dims, 128, -1));
  EXPECT_FALSE(result.passed) << "seed " << c.seed;
  EXPECT_GT(result.mismatches, 257u * 257u / 2);
}

TEST(MatmulTolerance, NanAndPoisonFail) {
  const auto c =
      make_cases(kind_named("matmul"), {{{.j = 17, .k = 33, .l = 9}, "real"}}, tolerance_seed)[0];
  const auto p = prepare(c);
  auto got = matmul_f32(p.in, c.dims, false);
  got[5] = std::nanf("");
  got[6] = std::bit_cast<float>(output_poison_word);
  const auto result = check(p, got);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.nan_count, 1u);
  EXPECT_EQ(result.poison_count, 1u);
  EXPECT_EQ(result.mismatches, 2u);
  EXPECT_EQ(result.element_count, 17u * 9);
  ASSERT_TRUE(result.first.has_value());
  EXPECT_EQ(result.first->index, 5u);
}

} // namespace
} // namespace cugrade::problems
