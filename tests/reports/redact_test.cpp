#include <gtest/gtest.h>

#include "reports/redact.h"
#include "sample_report.h"

namespace cugrade::reports {
namespace {

TEST(Redact, HiddenTestIsStrippedToNameGroupVisibilityStatus) {
  const report r = redact(testing::sample_report()).get();
  const test_result& t = r.kernels[1].tests[1];
  EXPECT_EQ(t.name, "hidden group hidden_edge case 1");
  EXPECT_EQ(t.group, "hidden_edge");
  EXPECT_EQ(t.vis, visibility::hidden);
  EXPECT_EQ(t.status, test_status::failed);
  EXPECT_TRUE(t.shape.empty());
  EXPECT_TRUE(t.distribution.empty());
  EXPECT_TRUE(t.message.empty());
  EXPECT_TRUE(t.output.empty()); // a hidden case's debug output could print its inputs
  EXPECT_EQ(t.output_bytes, 0u);
  EXPECT_FALSE(t.max_abs_error || t.max_rel_error || t.mismatches || t.first_mismatch);
}

TEST(Redact, AVisibleCasesOutputLosesTheHiddenShapesItPrints) {
  report r = testing::sample_report();
  // A launcher may keep what it saw in a hidden case and print it in the next visible one.
  r.kernels[1].tests[0].output = std::string("last n was ") + testing::hidden_shape + "\n";
  const report out = redact(r).get();
  EXPECT_EQ(out.kernels[1].tests[0].output, "last n was <hidden case>\n");
}

TEST(Redact, VisibleTestsAreUntouched) {
  const report original = testing::sample_report();
  const report r = redact(original).get();
  EXPECT_EQ(r.kernels[1].tests[0].shape, original.kernels[1].tests[0].shape);
  EXPECT_EQ(r.kernels[1].tests[0].message, original.kernels[1].tests[0].message);
  EXPECT_EQ(r.kernels[0], original.kernels[0]);
}

TEST(Redact, ATestInAHiddenGroupIsHiddenWhateverItsOwnVisibility) {
  report r = testing::sample_report();
  r.kernels[1].tests[1].vis = visibility::visible; // the grader forgot
  const report out = redact(r).get();
  EXPECT_EQ(out.kernels[1].tests[1].vis, visibility::hidden);
  EXPECT_TRUE(out.kernels[1].tests[1].shape.empty());
}

TEST(Redact, OrdinalsCountWithinEachGroup) {
  kernel_report k;
  k.name = "reduce_convergent";
  for (const char* group : {"a", "b", "a", "a"}) {
    test_result t;
    t.name = std::string(group) + "-secret";
    t.group = group;
    t.vis = visibility::hidden;
    k.tests.push_back(t);
  }
  report r;
  r.kernels = {k};
  const report out = redact(r).get();
  EXPECT_EQ(out.kernels[0].tests[0].name, "hidden group a case 1");
  EXPECT_EQ(out.kernels[0].tests[1].name, "hidden group b case 1");
  EXPECT_EQ(out.kernels[0].tests[2].name, "hidden group a case 2");
  EXPECT_EQ(out.kernels[0].tests[3].name, "hidden group a case 3");
  EXPECT_EQ(redact(out).get(), out) << "redaction is idempotent";
}

TEST(Redact, HiddenShapesAreScrubbedFromFreeTextAsWholeWords) {
  const report r = redact(testing::sample_report()).get();
  EXPECT_EQ(r.kernels[1].message.find(testing::hidden_shape), std::string::npos);
  report other = testing::sample_report();
  other.kernels[1].tests[1].shape = "n=1";
  other.kernels[1].message = "n=1000 and n=1 both";
  EXPECT_EQ(redact(other)->kernels[1].message, "n=1000 and <hidden case> both");
}

TEST(Redact, ShapesThatAreAlsoPublicStay) {
  report r = testing::sample_report();
  r.kernels[1].tests[1].shape = "33x17x65"; // the visible failing test has this shape too
  r.kernels[1].message = "see 33x17x65";
  EXPECT_EQ(redact(r)->kernels[1].message, "see 33x17x65");
}

TEST(Redact, AHintNamingAHiddenCaseKeepsOnlyItsKindOfMistake) {
  const report r = redact(testing::sample_report()).get();
  const hint& h = r.kernels[1].diagnosis[0];
  EXPECT_EQ(h.code, hint_code::boundary_check);
  EXPECT_EQ(h.message, hidden_hint_message(hint_code::boundary_check));
  EXPECT_NE(h.message.find("boundary check"), std::string::npos);
  EXPECT_TRUE(h.evidence.empty());
}

// The hint of the issue: a histogram that loses one update on a hidden n = 1000 only.
TEST(Redact, AHintQuotingAHiddenSizeAloneIsRedacted) {
  report r = testing::sample_report();
  r.kernels[1].tests[1].shape = "n=1000";
  r.kernels[1].tests[1].name = "n=1000/uniform";
  r.kernels[1].diagnosis = {{hint_code{"lost_updates"},
                             "the bins total 999, but n = 1000: updates were lost",
                             "histogram.cu:12",
                             {"the bins total 999, but n = 1000"}}};
  const redacted_report out = redact(r);
  const hint& h = out->kernels[1].diagnosis[0];
  EXPECT_EQ(h.message.find("1000"), std::string::npos) << h.message;
  EXPECT_EQ(h.message.find("999"), std::string::npos) << h.message;
  EXPECT_TRUE(h.evidence.empty());
  EXPECT_EQ(h.location, "histogram.cu:12");
}

TEST(Redact, AHintOfVisibleCasesIsUntouched) {
  report r = testing::sample_report();
  r.kernels[1].diagnosis = {{hint_code{"lost_updates"}, "the bins total 4090, but n = 4096"}};
  EXPECT_EQ(redact(r)->kernels[1].diagnosis[0].message, "the bins total 4090, but n = 4096");
}

} // namespace
} // namespace cugrade::reports
