#include "harness/problems/reduction_problem.h"

#include "tests/problems/float_models.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <set>

namespace cugrade::problems {
namespace {

using testing::f32_buffer;
using testing::round_mantissa;

const problem& reduction = get(kind_named("reduction"));
constexpr std::uint64_t reduction_seed = 4242;

using summation = std::function<float(std::span<const float>)>;

float sum_forward(std::span<const float> x) {
  float s = 0;
  for (const float v : x) {
    s += v;
  }
  return s;
}

float sum_reverse(std::span<const float> x) {
  float s = 0;
  for (auto it = x.rbegin(); it != x.rend(); ++it) {
    s += *it;
  }
  return s;
}

float sum_pairwise(std::span<const float> x) {
  if (x.size() <= 2) {
    return x.size() == 0 ? 0.0f : x.size() == 1 ? x[0] : x[0] + x[1];
  }
  const std::size_t half = x.size() / 2;
  return sum_pairwise(x.first(half)) + sum_pairwise(x.subspan(half));
}

/// What the course's kernels do: each block of 1024 threads loads 2 elements per thread, halves
/// the stride down to 1 (convergent), and block totals are added one after another (atomics).
float sum_block_tree(std::span<const float> x) {
  constexpr std::size_t block = 2048;
  float total = 0;
  std::vector<float> s(block);
  for (std::size_t b = 0; b < x.size(); b += block) {
    std::fill(s.begin(), s.end(), 0.0f);
    std::copy(x.begin() + static_cast<long>(b),
              x.begin() + static_cast<long>(std::min(b + block, x.size())), s.begin());
    for (std::size_t stride = block / 2; stride >= 1; stride /= 2) {
      for (std::size_t t = 0; t < stride; ++t) {
        s[t] += s[t + stride];
      }
    }
    total += s[0];
  }
  return total;
}

comparison check(const test_case& c, const summation& sum,
                 const std::function<void(std::vector<float>&)>& corrupt = nullptr) {
  const auto in = reduction.generate(c);
  const auto expected = reduction.reference(c, in);
  std::vector<float> x(in[0].as<float>().begin(), in[0].as<float>().end());
  if (corrupt) {
    corrupt(x);
  }
  return reduction.compare(c, in, expected, f32_buffer({sum(x)}));
}

std::size_t failures(const std::string& distribution, const summation& sum,
                     const std::function<void(std::vector<float>&)>& corrupt = nullptr) {
  std::size_t failed = 0;
  for (const auto& c : make_cases(kind_named("reduction"), edge_templates(kind_named("reduction")),
                                  reduction_seed)) {
    if (c.distribution == distribution) {
      failed += check(c, sum, corrupt).passed ? 0 : 1;
    }
  }
  return failed;
}

TEST(ReductionReference, SumsAKnownVector) {
  const auto c =
      make_cases(kind_named("reduction"), {{{.n = 4}, "real_offset"}}, reduction_seed)[0];
  EXPECT_EQ(reduction.reference(c, {f32_buffer({1, 2.5f, -3, 0.25f})}), std::vector<double>{0.75});
}

TEST(ReductionTolerance, Float32InAnyOrderPassesEveryEdgeCase) {
  for (const auto& c : make_cases(kind_named("reduction"), edge_templates(kind_named("reduction")),
                                  reduction_seed)) {
    SCOPED_TRACE(c.name + " seed " + std::to_string(c.seed));
    for (const auto& sum : {summation(sum_forward), summation(sum_reverse), summation(sum_pairwise),
                            summation(sum_block_tree)}) {
      const auto result = check(c, sum);
      EXPECT_TRUE(result.passed) << result.note;
      if (c.distribution != "real_offset") {
        EXPECT_EQ(result.max_abs_error, 0.0) << result.note;
      }
    }
  }
}

TEST(ReductionTolerance, DroppedElementFails) {
  const auto drop_last = [](std::vector<float>& x) { x.pop_back(); };
  EXPECT_GT(failures("real_offset", sum_block_tree, drop_last), 0u) << "seed " << reduction_seed;
  EXPECT_GT(failures("integer", sum_block_tree, drop_last), 0u) << "seed " << reduction_seed;
  EXPECT_EQ(failures("ones", sum_block_tree, drop_last), 18u) << "seed " << reduction_seed;
}

TEST(ReductionTolerance, DoubleCountedElementFails) {
  const auto twice_first = [](std::vector<float>& x) { x.push_back(x.front()); };
  EXPECT_GT(failures("real_offset", sum_pairwise, twice_first), 0u) << "seed " << reduction_seed;
  EXPECT_EQ(failures("ones", sum_pairwise, twice_first), 18u) << "seed " << reduction_seed;
}

TEST(ReductionTolerance, ReducedPrecisionFails) {
  const auto tf32_inputs = [](std::vector<float>& x) {
    for (float& v : x) {
      v = round_mantissa(v, 10);
    }
  };
  EXPECT_GT(failures("real_offset", sum_pairwise, tf32_inputs), 0u) << "seed " << reduction_seed;
  const auto half_sum = [](std::span<const float> x) {
    float s = 0;
    for (const float v : x) {
      s = round_mantissa(s + round_mantissa(v, 10), 10);
    }
    return s;
  };
  EXPECT_GT(failures("real_offset", half_sum), 0u) << "seed " << reduction_seed;
}

TEST(ReductionCompare, NanAndPoisonFail) {
  const auto c = make_cases(kind_named("reduction"), {{{.n = 7}, "ones"}}, reduction_seed)[0];
  const auto in = reduction.generate(c);
  const auto expected = reduction.reference(c, in);
  const auto nan = reduction.compare(c, in, expected, f32_buffer({std::nanf("")}));
  EXPECT_FALSE(nan.passed);
  EXPECT_EQ(nan.nan_count, 1u);
  const auto poison =
      reduction.compare(c, in, expected, f32_buffer({std::bit_cast<float>(output_poison_word)}));
  EXPECT_FALSE(poison.passed);
  EXPECT_EQ(poison.poison_count, 1u);
  EXPECT_EQ(poison.nan_count, 0u);
  EXPECT_EQ(poison.note, "sum of n = 7: expected 7, got nan (never written), allowed error 0 "
                         "(integer inputs compare exactly)");
  const auto off = reduction.compare(c, in, expected, f32_buffer({6}));
  EXPECT_FALSE(off.passed);
  EXPECT_EQ(off.max_abs_error, 1.0);
}

TEST(ReductionGenerate, ValuesStayInTheirRanges) {
  const auto cases =
      make_cases(kind_named("reduction"),
                 {{{.n = 65537}, "real_offset"}, {{.n = 65537}, "integer"}, {{.n = 65537}, "ones"}},
                 reduction_seed);
  const auto real = reduction.generate(cases[0]);
  const auto [lo, hi] = std::ranges::minmax(real[0].as<float>());
  EXPECT_GE(lo, 0.5f);
  EXPECT_LT(hi, 1.5f);
  EXPECT_LT(lo, 0.51f);
  EXPECT_GT(hi, 1.49f);
  const auto integer = reduction.generate(cases[1]);
  const std::set<float> values(integer[0].as<float>().begin(), integer[0].as<float>().end());
  EXPECT_EQ(values.size(), 17u);
  EXPECT_EQ(*values.begin(), -8.0f);
  EXPECT_EQ(*values.rbegin(), 8.0f);
  const auto ones = reduction.generate(cases[2]);
  EXPECT_TRUE(std::ranges::all_of(ones[0].as<float>(), [](float v) { return v == 1.0f; }));
}

TEST(ReductionShapes, IncludeTheAwkwardSizes) {
  std::vector<long> sizes;
  for (const auto& s : reduction.edge_shapes()) {
    sizes.push_back(s.n);
  }
  EXPECT_EQ(sizes, (std::vector<long>{1, 2, 7, 15, 16, 17, 31, 33, 63, 65, 127, 129, 255, 257, 1023,
                                      1025, 65537, 1000003}));
  const auto bench = reduction.benchmark_cases();
  ASSERT_EQ(bench.size(), 1u);
  EXPECT_EQ(bench[0].dims.n, 1L << 28);
  EXPECT_EQ(bench[0].distribution, "real_offset");
}

const float* seen_values = nullptr;
long seen_count = 0;
float* seen_result = nullptr;
extern "C" void fake_reduce(const float* input, long n, float* result) {
  seen_values = input;
  seen_count = n;
  seen_result = result;
}

TEST(ReductionInvoke, PassesInputSizeAndResult) {
  float in = 0, out = 0;
  reduction.invoke(reinterpret_cast<void*>(&fake_reduce), {&in}, &out, {.n = 1025});
  EXPECT_EQ(seen_values, &in);
  EXPECT_EQ(seen_count, 1025);
  EXPECT_EQ(seen_result, &out);
}

} // namespace
} // namespace cugrade::problems
