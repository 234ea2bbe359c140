#include "harness/problems/matmul_problem.h"

#include "harness/core/error.h"
#include "tests/problems/float_models.h"

#include <algorithm>
#include <bit>
#include <gtest/gtest.h>
#include <set>

namespace cugrade::problems {
namespace {

using testing::f32_buffer;

const problem& matmul = get(kind_named("matmul"));

test_case hand_case() {
  return make_cases(kind_named("matmul"), {{{.j = 2, .k = 3, .l = 2}, "integer"}}, 1)[0];
}

std::vector<buffer> hand_inputs() {
  // M = [1 2 3; 4 5 6], N = [7 8; 9 10; 11 12]  =>  P = [58 64; 139 154]
  return {f32_buffer({1, 2, 3, 4, 5, 6}), f32_buffer({7, 8, 9, 10, 11, 12})};
}

TEST(MatmulReference, MatchesAHandComputedProduct) {
  EXPECT_EQ(matmul.reference(hand_case(), hand_inputs()), (std::vector<double>{58, 64, 139, 154}));
}

TEST(MatmulReference, MatchesADirectDotProductOnALargeShape) {
  // The threaded i-k-j reference against the textbook formula, element by element.
  const auto c = make_cases(kind_named("matmul"), {{{.j = 521, .k = 263, .l = 389}, "real"}}, 5)[0];
  const auto in = matmul.generate(c);
  const auto p = matmul.reference(c, in);
  const auto m = in[0].as<float>();
  const auto n = in[1].as<float>();
  for (const auto& [i, jj] : {std::pair{0L, 0L}, {520L, 388L}, {260L, 17L}, {3L, 300L}}) {
    double dot = 0;
    for (long kk = 0; kk < 263; ++kk) {
      dot += static_cast<double>(m[i * 263 + kk]) * n[kk * 389 + jj];
    }
    EXPECT_NEAR(p[i * 389 + jj], dot, 1e-12) << "P[" << i << "][" << jj << "] seed " << c.seed;
  }
}

TEST(MatmulGenerate, RealIsInMinusOneToOneAndIntegerIsMinusFourToFour) {
  const auto cases = make_cases(kind_named("matmul"), edge_templates(kind_named("matmul")), 11);
  const auto real = std::find_if(cases.begin(), cases.end(),
                                 [](const test_case& c) { return c.name == "65x65x65/real"; });
  const auto integer = std::find_if(
      cases.begin(), cases.end(), [](const test_case& c) { return c.name == "65x65x65/integer"; });
  ASSERT_NE(real, cases.end());
  ASSERT_NE(integer, cases.end());
  for (const auto& b : matmul.generate(*real)) {
    const auto [lo, hi] = std::ranges::minmax(b.as<float>());
    EXPECT_GE(lo, -1.0f);
    EXPECT_LT(hi, 1.0f);
    EXPECT_LT(lo, -0.9f) << "seed " << real->seed;
    EXPECT_GT(hi, 0.9f) << "seed " << real->seed;
  }
  std::set<float> values;
  for (const auto& b : matmul.generate(*integer)) {
    values.insert(b.as<float>().begin(), b.as<float>().end());
  }
  EXPECT_EQ(values, (std::set<float>{-4, -3, -2, -1, 0, 1, 2, 3, 4}));
}

TEST(MatmulShapes, IncludeTheAwkwardSizes) {
  const auto shapes = matmul.edge_shapes();
  const auto has = [&](long j, long k, long l) {
    return std::ranges::find(shapes, shape{.j = j, .k = k, .l = l}) != shapes.end();
  };
  for (const long n : {1, 2, 7, 15, 16, 17, 31, 33, 63, 65, 127, 129, 255, 257}) {
    EXPECT_TRUE(has(n, n, n)) << n;
  }
  EXPECT_TRUE(has(37, 41, 43));
  EXPECT_TRUE(has(53, 7, 101));
  EXPECT_TRUE(has(3, 97, 5));
  EXPECT_TRUE(has(129, 65, 33));
  EXPECT_TRUE(has(70, 1, 90));
  EXPECT_TRUE(has(33, 1, 17));
  EXPECT_TRUE(has(521, 263, 389));
  const auto bench = matmul.benchmark_cases();
  ASSERT_EQ(bench.size(), 2u);
  EXPECT_EQ(bench[0].dims, (shape{.j = 2048, .k = 2048, .l = 2048}));
  EXPECT_EQ(bench[1].dims, (shape{.j = 4096, .k = 1024, .l = 2048}));
  EXPECT_EQ(bench[1].distribution, "real");
}

TEST(MatmulCompare, NoteNamesTheFirstWrongElementAndItsTolerance) {
  const auto c = hand_case();
  const auto in = hand_inputs();
  const auto expected = matmul.reference(c, in);
  const auto result = matmul.compare(c, in, expected, f32_buffer({58, 64, 139, 153}));
  EXPECT_FALSE(result.passed);
  ASSERT_TRUE(result.first.has_value());
  EXPECT_EQ(result.first->index, 3u);
  EXPECT_EQ(result.first->expected, 154.0);
  EXPECT_EQ(result.first->got, 153.0);
  EXPECT_EQ(result.note, "1 of 4 elements wrong; first at P[1][1]: expected 154, got 153, "
                         "allowed error 0 (integer inputs compare exactly)");
  EXPECT_TRUE(matmul.compare(c, in, expected, f32_buffer({58, 64, 139, 154})).passed);
}

TEST(MatmulCompare, RejectsBuffersOfTheWrongSize) {
  const auto c = hand_case();
  const auto in = hand_inputs();
  EXPECT_THROW((void)matmul.compare(c, in, matmul.reference(c, in), f32_buffer({1, 2, 3})),
               cugrade::error);
}

struct recorded_call {
  const float* m = nullptr;
  const float* n = nullptr;
  float* p = nullptr;
  int j = 0, k = 0, l = 0;
};
recorded_call last_call;

extern "C" void fake_matmul(const float* m, const float* n, float* p, int j, int k, int l) {
  last_call = {m, n, p, j, k, l};
}

TEST(MatmulInvoke, PassesPointersAndSizesInContractOrder) {
  float a = 0, b = 0, out = 0;
  matmul.invoke(reinterpret_cast<void*>(&fake_matmul), {&a, &b}, &out, {.j = 3, .k = 5, .l = 7});
  EXPECT_EQ(last_call.m, &a);
  EXPECT_EQ(last_call.n, &b);
  EXPECT_EQ(last_call.p, &out);
  EXPECT_EQ(last_call.j, 3);
  EXPECT_EQ(last_call.k, 5);
  EXPECT_EQ(last_call.l, 7);
  EXPECT_THROW(matmul.invoke(reinterpret_cast<void*>(&fake_matmul), {&a}, &out, {1, 1, 1, 0}),
               cugrade::error);
}

} // namespace
} // namespace cugrade::problems
