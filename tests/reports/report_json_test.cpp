#include <cmath>

#include <gtest/gtest.h>

#include "reports/redact.h"
#include "reports/report_json.h"
#include "sample_report.h"

namespace cugrade::reports {
namespace {

using testing::sample_report;

// NaN never equals itself, so equality tests use a report whose values are all finite.
report finite_report() {
  report r = sample_report();
  r.kernels[1].tests[0].first_mismatch->got = 2.5;
  return r;
}

TEST(ReportJson, RenderedTextParsesBackToTheSameJson) {
  const report r = finite_report();
  EXPECT_EQ(nlohmann::json::parse(render_json(redact(r))), to_json(redact(r)));
  EXPECT_EQ(render_json(redact(r)).back(), '\n');
  EXPECT_NE(render_json(redact(r)).find("\n  \"assignment\": {\n    \"name\""), std::string::npos);
}

TEST(ReportJson, StagesAndTheirPartsReadBack) {
  const report r = finite_report();
  const nlohmann::json j = to_json(redact(r));
  EXPECT_EQ(j["stages"][1]["parts"][0]["name"], "lock wait");
  EXPECT_EQ(j["stages"][1]["parts"][0]["seconds"], 3.5);
  EXPECT_FALSE(j["stages"][0].contains("parts")); // a stage without parts writes none
  std::string err;
  const auto back = report_from_json(j, &err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(back->stages, r.stages);
}

TEST(ReportJson, NonFiniteValuesAreWrittenByName) {
  report r = sample_report();
  r.kernels[1].tests[0].max_abs_error = INFINITY;
  const nlohmann::json j = to_json(redact(r));
  const auto& test = j["kernels"][1]["tests"][0];
  EXPECT_EQ(test["first_mismatch"]["got"], "NaN");
  EXPECT_EQ(test["max_abs_error"], "Infinity");
  r.kernels[1].tests[0].max_abs_error = -INFINITY;
  EXPECT_EQ(to_json(redact(r))["kernels"][1]["tests"][0]["max_abs_error"], "-Infinity");
}

TEST(ReportJson, ContractFieldsArePresent) {
  const nlohmann::json j = to_json(redact(sample_report()));
  for (const char* key : {"schema", "assignment", "submission", "environment", "build", "kernels",
                          "score", "max_score", "late_penalty", "gradable", "created_at"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["assignment"]["spec_sha256"], std::string(64, 'a'));
  EXPECT_EQ(j["submission"]["late_days"], 1);
  EXPECT_EQ(j["environment"]["backend"], "gpu");
  EXPECT_EQ(j["build"]["status"], "ok");
  EXPECT_EQ(j["kernels"][2]["error_kind"], "out_of_bounds");
  EXPECT_FALSE(j["kernels"][0].contains("error_kind"));
  EXPECT_FALSE(j["kernels"][2].contains("performance")) << "no measurements, no key";
  EXPECT_DOUBLE_EQ(j["score"].get<double>(), 14.5);
}

TEST(ReportJson, HiddenTestKeepsOnlyNameGroupVisibilityAndStatus) {
  const nlohmann::json j = to_json(redact(sample_report()));
  const nlohmann::json& hidden = j["kernels"][1]["tests"][1];
  EXPECT_EQ(hidden, (nlohmann::json{{"name", "hidden group hidden_edge case 1"},
                                    {"group", "hidden_edge"},
                                    {"visibility", "hidden"},
                                    {"status", "failed"}}));
  EXPECT_EQ(j.dump().find(testing::hidden_shape), std::string::npos) << j.dump(2);
}

TEST(ReportJson, UngradableReportHasNullScoreWhateverTheField) {
  report r = sample_report();
  r.gradable = false;
  r.infrastructure_error = "nvcc not found";
  const nlohmann::json j = to_json(redact(r)); // score still set in the struct: the writer drops it
  EXPECT_TRUE(j["score"].is_null());
  EXPECT_EQ(j["infrastructure_error"], "nvcc not found");
}

TEST(ReportJson, InvalidUtf8InTheBuildLogIsReplacedNotFatal) {
  report r = sample_report();
  r.build.log = "error: \xff\xfe bad bytes";
  const std::string text = render_json(redact(r));
  EXPECT_NE(text.find("\xEF\xBF\xBD"), std::string::npos);
  EXPECT_FALSE(nlohmann::json::parse(text, nullptr, false).is_discarded());
}

TEST(ReportJson, NonFinitePointsAreABug) {
  report r = sample_report();
  r.kernels[0].score = NAN;
  EXPECT_THROW((void)to_json(redact(r)), std::invalid_argument);
}

} // namespace
} // namespace cugrade::reports
