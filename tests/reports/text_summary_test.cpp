#include <gtest/gtest.h>

#include "reports/writers.h"
#include "sample_report.h"

namespace cugrade::reports {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(TextSummary, ShowsKernelsScoresHintsAndEnvironment) {
  const std::string text = render_text(redact(testing::sample_report()), false);
  EXPECT_TRUE(contains(text, "cugrade report: matmul for alice")) << text;
  EXPECT_TRUE(contains(text, "backend: gpu, NVIDIA H100 (driver 550.54, CUDA runtime 13.0)"));
  EXPECT_TRUE(contains(text, "deadline: 2025-02-28T23:59:00Z, 1 day late")) << text;
  EXPECT_TRUE(contains(text, "note: 1 uncommitted change")) << text;
  EXPECT_TRUE(contains(text, "1 compiler warning (notes, not failures)")) << text;
  EXPECT_TRUE(contains(text, "    matmul.cu:3: warning: unused variable 'x'")) << text;
  EXPECT_TRUE(contains(text, "performance: not measured: the kernel failed")) << text;
  EXPECT_TRUE(contains(text, "matmul_naive")) << text;
  EXPECT_TRUE(contains(text, "passed        12.00 / 12.00")) << text;
  EXPECT_TRUE(contains(text, "failed         4.00 / 12.00")) << text;
  EXPECT_TRUE(contains(text, "error          0.00 / 12.00 (out_of_bounds)")) << text;
  EXPECT_TRUE(contains(text, "hint boundary_check:"));
  EXPECT_TRUE(contains(text,
                       "33x17x65/integer failed: 12 of 2145 elements differ <&\"quotes\"> here (12 "
                       "mismatches, first at index 5: expected 1, got nan) [inputs: "))
      << text;
  EXPECT_TRUE(contains(text, "speedup 2.00x"));
  EXPECT_TRUE(contains(text, "score: 14.50 / 36.00 (late penalty 1.50 deducted)")) << text;
  EXPECT_TRUE(contains(text, "  timing          7.25 s  matmul_naive\n"
                             "      lock wait 3.50 s, student runs 1.25 s, control 1.00 s, "
                             "checks 1.50 s\n"))
      << text;
}

TEST(TextSummary, WholeNumbersPrintAsIntegers) {
  report r = testing::sample_report();
  test_result t;
  t.name = "n=100003/uniform";
  t.status = test_status::failed;
  t.mismatches = 256;
  t.first_mismatch = mismatch_info{0, 2142950000.0, 2142950391.0};
  r.kernels[1].tests = {t};
  const std::string text = render_text(redact(r), false);
  EXPECT_TRUE(contains(text, "expected 2142950000, got 2142950391")) << text;
}

TEST(TextSummary, CheckAllListsEveryFailingTest) {
  report r = testing::sample_report();
  for (int i = 0; i < 6; ++i) {
    test_result t;
    t.name = "case" + std::to_string(i);
    t.status = test_status::failed;
    r.kernels[1].tests.push_back(t);
  }
  const std::string text = render_text(redact(r), false, 100);
  EXPECT_TRUE(contains(text, "case5")) << text;
  EXPECT_FALSE(contains(text, "more failing tests")) << text;
}

TEST(TextSummary, AKernelThatRanShowsItsCasesPassedPerGroup) {
  const std::string text = render_text(redact(testing::sample_report()), false);
  EXPECT_TRUE(contains(text, "cases passed: edge 1/2, hidden_edge 0/1")) << text;
  EXPECT_FALSE(contains(text, "cases passed: edge 1/1")) << text; // the passing kernel
}

TEST(TextSummary, ColourOnlyWhenAsked) {
  const report r = testing::sample_report();
  EXPECT_FALSE(contains(render_text(redact(r), false), "\x1b["));
  const std::string coloured = render_text(redact(r), true);
  EXPECT_TRUE(contains(coloured, "\x1b[32mpassed")) << coloured;
  EXPECT_TRUE(contains(coloured, "\x1b[31mfailed"));
}

TEST(TextSummary, LongFailureListsAreCut) {
  report r = testing::sample_report();
  for (int i = 0; i < 6; ++i) {
    test_result t;
    t.name = "case" + std::to_string(i);
    t.group = "edge";
    t.status = test_status::timeout;
    r.kernels[1].tests.push_back(t);
  }
  const std::string text = render_text(redact(r), false);
  EXPECT_TRUE(contains(text, "... and 5 more failing tests")) << text;
  EXPECT_FALSE(contains(text, "case5"));
}

TEST(TextSummary, UngradableSaysWhyAndGivesNoScore) {
  report r = testing::sample_report();
  mark_ungradable(r, "no CUDA-capable device is detected");
  const std::string text = render_text(redact(r), false);
  EXPECT_TRUE(contains(text, "NOT GRADABLE: no CUDA-capable device is detected")) << text;
  EXPECT_FALSE(contains(text, "score:"));
}

} // namespace
} // namespace cugrade::reports
