#include "harness/problems/histogram_problem.h"

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <string_view>

namespace cugrade::problems {
namespace {

const problem& histogram = get(kind_named("histogram"));
constexpr std::uint64_t histogram_seed = 77;

test_case case_of(long n, const std::string& distribution) {
  return make_cases(kind_named("histogram"), {{{.n = n}, distribution}}, histogram_seed)[0];
}

buffer bytes_buffer(std::string_view text) {
  buffer b;
  b.type = element_type::u8;
  b.bytes.resize(text.size());
  std::memcpy(b.bytes.data(), text.data(), text.size());
  return b;
}

buffer bins_buffer(const std::vector<double>& counts) {
  buffer b;
  b.type = element_type::u32;
  b.bytes.resize(counts.size() * 4);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    b.as<std::uint32_t>()[i] = static_cast<std::uint32_t>(counts[i]);
  }
  return b;
}

TEST(HistogramReference, CountsAKnownInput) {
  const std::string_view text("abca\0\xff", 6);
  const auto bins = histogram.reference(case_of(6, "uniform"), {bytes_buffer(text)});
  ASSERT_EQ(bins.size(), 256u);
  EXPECT_EQ(bins['a'], 2.0);
  EXPECT_EQ(bins['b'], 1.0);
  EXPECT_EQ(bins['c'], 1.0);
  EXPECT_EQ(bins[0], 1.0);
  EXPECT_EQ(bins[255], 1.0);
  double total = 0;
  for (const double b : bins) {
    total += b;
  }
  EXPECT_EQ(total, 6.0);
}

struct histogram_fixture : ::testing::Test {
  test_case c = case_of(1009, "text");
  std::vector<buffer> in = histogram.generate(c);
  std::vector<double> expected = histogram.reference(c, in);
};

TEST_F(histogram_fixture, CorrectBinsPassWithMatchingTotals) {
  const auto result = histogram.compare(c, in, expected, bins_buffer(expected));
  EXPECT_TRUE(result.passed);
  EXPECT_EQ(result.total_expected, 1009.0);
  EXPECT_EQ(result.total_got, 1009.0);
  EXPECT_EQ(result.note, "bins total 1009, expected n = 1009");
}

TEST_F(histogram_fixture, OneExtraCountFailsAndShowsInTheTotal) {
  auto got = expected;
  got[' '] += 1;
  const auto result = histogram.compare(c, in, expected, bins_buffer(got));
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.mismatches, 1u);
  EXPECT_EQ(result.total_got, 1010.0);
  EXPECT_EQ(result.note.substr(0, 35), "bins total 1010, expected n = 1009;");
  EXPECT_NE(result.note.find("first bin 32 (' '): expected"), std::string::npos) << result.note;
}

TEST_F(histogram_fixture, OneMissingCountFails) {
  auto got = expected;
  got['e'] -= 1;
  const auto result = histogram.compare(c, in, expected, bins_buffer(got));
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.total_got, 1008.0);
  EXPECT_NE(result.note.find("first bin 101 ('e')"), std::string::npos) << result.note;
}

TEST_F(histogram_fixture, CountInTheWrongBinFailsWithARightTotal) {
  auto got = expected;
  got['a'] -= 1;
  got['b'] += 1;
  const auto result = histogram.compare(c, in, expected, bins_buffer(got));
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.mismatches, 2u);
  EXPECT_EQ(result.total_got, 1009.0);
}

TEST_F(histogram_fixture, UnwrittenBinsAreCountedAsPoison) {
  auto bins = bins_buffer(expected);
  bins.as<std::uint32_t>()[3] = output_poison_word;
  const auto result = histogram.compare(c, in, expected, bins);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.poison_count, 1u);
  EXPECT_EQ(result.nan_count, 0u);
  EXPECT_EQ(result.total_got, 1009.0); // bin 3 holds no text bytes
  EXPECT_NE(result.note.find("1 never written"), std::string::npos) << result.note;
}

std::vector<double> counts_of(const std::string& distribution, long n) {
  const auto c = case_of(n, distribution);
  return histogram.reference(c, histogram.generate(c));
}

TEST(HistogramGenerate, UniformFillsEveryBinEvenly) {
  const auto bins = counts_of("uniform", 1000003);
  const auto [lo, hi] = std::ranges::minmax(bins);
  EXPECT_GT(lo, 1000003 / 256 * 0.85) << "seed " << histogram_seed;
  EXPECT_LT(hi, 1000003 / 256 * 1.15) << "seed " << histogram_seed;
}

TEST(HistogramGenerate, SingleRepeatsOneByte) {
  const auto bins = counts_of("single", 65537);
  EXPECT_EQ(std::ranges::count(bins, 65537.0), 1);
  EXPECT_EQ(std::ranges::count(bins, 0.0), 255);
}

TEST(HistogramGenerate, ContentionPutsThatShareInTheHotBin) {
  for (const auto& [name, share] :
       {std::pair{"contention10", 0.1}, {"contention40", 0.4}, {"contention90", 0.9}}) {
    const auto bins = counts_of(name, 1000003);
    const double hot = std::ranges::max(bins) / 1000003;
    EXPECT_NEAR(hot, share + (1 - share) / 256, 0.003) << name << " seed " << histogram_seed;
    EXPECT_EQ(std::ranges::count(bins, 0.0), 0) << name; // the rest is uniform
  }
}

TEST(HistogramGenerate, TextIsLowercaseWordsAndSpaces) {
  const auto c = case_of(65537, "text");
  const auto in = histogram.generate(c);
  const auto bytes = in[0].as<std::uint8_t>();
  const std::string text(bytes.begin(), bytes.end());
  EXPECT_TRUE(
      std::ranges::all_of(text, [](char ch) { return ch == ' ' || (ch >= 'a' && ch <= 'z'); }));
  EXPECT_NE(text.find(" parallel "), std::string::npos);
  EXPECT_NE(text.find(" programming "), std::string::npos);
  EXPECT_EQ(text.find("  "), std::string::npos);
}

TEST(HistogramGenerate, SortedRunsAreLongAndAscending) {
  const auto c = case_of(1000003, "sorted_runs");
  const auto in = histogram.generate(c);
  const auto bytes = in[0].as<std::uint8_t>();
  std::size_t start = 0;
  for (std::size_t i = 1; i <= bytes.size(); ++i) {
    if (i == bytes.size() || bytes[i] != bytes[i - 1]) {
      if (i < bytes.size()) {
        ASSERT_GE(i - start, 1000u) << "run at " << start << " seed " << c.seed;
        ASSERT_LE(i - start, 5000u) << "run at " << start << " seed " << c.seed;
        ASSERT_EQ(static_cast<std::uint8_t>(bytes[i - 1] + 1), bytes[i]);
      }
      start = i;
    }
  }
}

TEST(HistogramGenerate, ChunksDoNotDependOnTheTotalSize) {
  // Chunk c always draws from its own stream, so a longer input extends a shorter one.
  auto small = case_of(65537, "contention40");
  auto large = small;
  large.dims.n = 1000003;
  const auto a = histogram.generate(small);
  const auto b = histogram.generate(large);
  EXPECT_TRUE(std::equal(a[0].bytes.begin(), a[0].bytes.end(), b[0].bytes.begin()));
}

TEST(HistogramShapes, IncludeTheAwkwardSizes) {
  std::vector<long> sizes;
  for (const auto& s : histogram.edge_shapes()) {
    sizes.push_back(s.n);
  }
  EXPECT_EQ(sizes, (std::vector<long>{1, 2, 7, 15, 16, 17, 31, 33, 63, 65, 127, 129, 255, 257, 1009,
                                      65537, 1000003, 4194319}));
  const auto bench = histogram.benchmark_cases();
  ASSERT_EQ(bench.size(), 2u);
  EXPECT_EQ(bench[0].dims.n, 268435456);
  EXPECT_EQ(bench[0].distribution, "uniform");
  EXPECT_EQ(bench[1].distribution, "contention90");
}

const unsigned char* seen_input = nullptr;
long seen_n = 0;
unsigned int* seen_bins = nullptr;
extern "C" void fake_histogram(const unsigned char* input, long n, unsigned int* bins) {
  seen_input = input;
  seen_n = n;
  seen_bins = bins;
}

TEST(HistogramInvoke, PassesInputSizeAndBins) {
  unsigned char in = 0;
  unsigned int bins = 0;
  histogram.invoke(reinterpret_cast<void*>(&fake_histogram), {&in}, &bins, {.n = 5000000000L});
  EXPECT_EQ(seen_input, &in);
  EXPECT_EQ(seen_n, 5000000000L);
  EXPECT_EQ(seen_bins, &bins);
}

} // namespace
} // namespace cugrade::problems
