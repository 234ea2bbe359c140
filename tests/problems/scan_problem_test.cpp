// The scan problem's promises (docs/tolerances.md, "Scans"): float32 scans in any association
// order pass every edge case of every distribution, integer data compare exactly, and a dropped,
// doubled or shifted element fails.
#include "harness/problems/scan_problem.h"

#include "tests/problems/float_models.h"

#include <functional>
#include <gtest/gtest.h>

namespace cugrade::problems {
namespace {

using testing::f32_buffer;

const problem& scan = get(kind_named("scan"));
constexpr std::uint64_t scan_seed = 977;

using scan_model = std::function<std::vector<float>(std::span<const float>)>;

std::vector<float> sequential(std::span<const float> x) {
  std::vector<float> y(x.size());
  float s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    y[i] = s += x[i];
  }
  return y;
}

// Kogge-Stone over one section: in step `stride`, y[t] += y[t - stride] (read, then write).
void kogge_stone_section(std::span<float> y) {
  for (std::size_t stride = 1; stride < y.size(); stride *= 2) {
    const std::vector<float> before(y.begin(), y.end());
    for (std::size_t t = stride; t < y.size(); ++t) {
      y[t] = before[t] + before[t - stride];
    }
  }
}

// Brent-Kung over one section of a power-of-two length: up-sweep, then down-sweep.
void brent_kung_section(std::span<float> y) {
  const std::size_t m = y.size();
  for (std::size_t stride = 1; stride < m; stride *= 2) {
    for (std::size_t k = 2 * stride - 1; k < m; k += 2 * stride) {
      y[k] += y[k - stride];
    }
  }
  for (std::size_t stride = m / 4; stride > 0; stride /= 2) {
    for (std::size_t k = 2 * stride - 1; k + stride < m; k += 2 * stride) {
      y[k + stride] += y[k];
    }
  }
}

// Sections scanned on their own, their totals scanned the same way (recursively), then added.
std::vector<float> hierarchical(std::span<const float> x, std::size_t section,
                                void (*block)(std::span<float>)) {
  const std::size_t sections = (x.size() + section - 1) / section;
  std::vector<float> y(sections * section, 0.0f);
  std::copy(x.begin(), x.end(), y.begin());
  std::vector<float> totals(sections);
  for (std::size_t b = 0; b < sections; ++b) {
    block(std::span(y).subspan(b * section, section));
    totals[b] = y[b * section + section - 1];
  }
  if (sections > 1) {
    const auto scanned = hierarchical(totals, section, block);
    for (std::size_t b = 1; b < sections; ++b) {
      for (std::size_t k = 0; k < section; ++k) {
        y[b * section + k] += scanned[b - 1];
      }
    }
  }
  y.resize(x.size());
  return y;
}

const std::vector<std::pair<const char*, scan_model>>& models() {
  static const std::vector<std::pair<const char*, scan_model>> all{
      {"sequential", sequential},
      {"kogge_stone_1024",
       [](std::span<const float> x) { return hierarchical(x, 1024, kogge_stone_section); }},
      {"kogge_stone_32",
       [](std::span<const float> x) { return hierarchical(x, 32, kogge_stone_section); }},
      {"brent_kung_1024",
       [](std::span<const float> x) { return hierarchical(x, 1024, brent_kung_section); }},
      {"brent_kung_64",
       [](std::span<const float> x) { return hierarchical(x, 64, brent_kung_section); }}};
  return all;
}

comparison run(const test_case& c, const scan_model& model) {
  const auto in = scan.generate(c);
  return scan.compare(c, in, scan.reference(c, in), f32_buffer(model(in[0].as<float>())));
}

TEST(ScanProblem, EveryFloat32OrderPassesEveryEdgeCase) {
  for (const auto& c :
       make_cases(kind_named("scan"), edge_templates(kind_named("scan")), scan_seed)) {
    for (const auto& [name, model] : models()) {
      const auto r = run(c, model);
      EXPECT_TRUE(r.passed) << name << " on " << c.name << ": " << r.note;
      if (c.distribution != "real_offset" && c.dims.n <= (1 << 20)) {
        EXPECT_EQ(r.max_abs_error, 0.0) << name << " on " << c.name << " (integers are exact)";
      }
    }
  }
}

TEST(ScanProblem, ReferenceIsTheInclusivePrefixSum) {
  const auto c = make_cases(kind_named("scan"), {{{.n = 5}, "ones"}}, scan_seed)[0];
  const auto in = scan.generate(c);
  EXPECT_EQ(scan.reference(c, in), (std::vector<double>{1, 2, 3, 4, 5}));
}

// A mistake applied to a correct float32 scan's output.
using mistake = std::function<void(std::vector<float>& y, std::span<const float> x)>;

TEST(ScanProblem, DroppedDoubledAndShiftedElementsFailOnEveryShape) {
  const std::vector<std::pair<const char*, mistake>> mistakes{
      {"last element dropped", [](auto& y, auto x) { y.back() -= x.back(); }},
      {"last element doubled", [](auto& y, auto x) { y.back() += x.back(); }},
      {"exclusive", [](auto& y, auto x) {
         for (std::size_t i = y.size(); i-- > 0;) {
           y[i] -= x[i];
         }
       }}};
  for (const auto& c :
       make_cases(kind_named("scan"), edge_templates(kind_named("scan")), scan_seed)) {
    if (c.distribution == "integer") {
      continue; // an element may be 0: dropping it changes nothing
    }
    const auto in = scan.generate(c);
    const auto expected = scan.reference(c, in);
    for (const auto& [name, change] : mistakes) {
      auto y = sequential(in[0].as<float>());
      change(y, in[0].as<float>());
      const auto r = scan.compare(c, in, expected, f32_buffer(y));
      // Real data catch a lost element of at least 0.5 while gamma_(i+1) S_i < 0.5 (i < 2364).
      if (c.distribution == "ones" || c.dims.n < 2364) {
        EXPECT_FALSE(r.passed) << name << " passed on " << c.name;
      }
    }
  }
}

TEST(ScanProblem, NoteNamesTheFirstWrongElementAndTheBound) {
  const auto c = make_cases(kind_named("scan"), {{{.n = 4}, "ones"}}, scan_seed)[0];
  const auto in = scan.generate(c);
  const auto r = scan.compare(c, in, scan.reference(c, in), f32_buffer({1, 2, 2, 3}));
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.note, "2 of 4 elements wrong; first at output[2]: expected 3, got 2, allowed error "
                    "0 (integer inputs compare exactly)");
}

TEST(ScanProblem, WorkIsOneAdditionAndEightBytesPerElement) {
  EXPECT_EQ(scan.work({.n = 1000}).flops, 999.0);
  EXPECT_EQ(scan.work({.n = 1000}).bytes, 8000.0);
  EXPECT_EQ(scan.output({.n = 9}).count, 9u);
}

} // namespace
} // namespace cugrade::problems
