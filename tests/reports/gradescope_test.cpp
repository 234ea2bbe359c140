#include <cmath>

#include <gtest/gtest.h>

#include "reports/writers.h"
#include "sample_report.h"

namespace cugrade::reports {
namespace {

using json = nlohmann::json;

double scores_sum(const json& results) {
  double sum = 0;
  for (const json& t : results["tests"]) {
    sum += t.value("score", 0.0);
  }
  return sum;
}

const json* find_test(const json& results, const std::string& name) {
  for (const json& t : results["tests"]) {
    if (t["name"] == name) {
      return &t;
    }
  }
  return nullptr;
}

TEST(Gradescope, TopLevelFieldsUseGradescopeNames) {
  const json j = json::parse(render_gradescope(redact(testing::sample_report())));
  EXPECT_DOUBLE_EQ(j["score"].get<double>(), 14.5);
  EXPECT_EQ(j["execution_time"], 43);
  EXPECT_EQ(j["output_format"], "text");
  EXPECT_EQ(j["visibility"], "visible");
  EXPECT_EQ(j["stdout_visibility"], "hidden");
  EXPECT_NE(j["output"].get<std::string>().find("matmul_tiled"), std::string::npos);
  ASSERT_TRUE(j["tests"].is_array());
  for (const json& t : j["tests"]) {
    for (const auto& [key, value] : t.items()) {
      EXPECT_TRUE(key == "name" || key == "score" || key == "max_score" || key == "status" ||
                  key == "output" || key == "visibility" || key == "tags")
          << key;
    }
    EXPECT_TRUE(t["status"] == "passed" || t["status"] == "failed") << t.dump();
  }
  // The leaderboard follows the published board's rule (docs/leaderboard.md): the sample's 2.0x
  // has no verified interval or reference source, so Gradescope gets no entry for it.
  EXPECT_FALSE(j.contains("leaderboard")) << j["leaderboard"].dump();
}

TEST(Gradescope, OneTestPerKernelGroupWithTheGroupsPoints) {
  const json j = gradescope_json(redact(testing::sample_report()));
  const json* edge = find_test(j, "matmul_tiled / edge");
  ASSERT_NE(edge, nullptr) << j.dump(2);
  EXPECT_EQ((*edge)["score"], 4.0);
  EXPECT_EQ((*edge)["max_score"], 8.0);
  EXPECT_EQ((*edge)["status"], "failed");
  EXPECT_EQ((*edge)["tags"], json::array({"matmul_tiled"}));
  EXPECT_NE((*edge)["output"].get<std::string>().find("33x17x65/integer: failed"),
            std::string::npos);
  const json* perf = find_test(j, "matmul_naive / performance");
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ((*perf)["score"], 2.0);
  // A kernel without groups is one test carrying its own points and diagnosis.
  const json* dynamic = find_test(j, "matmul_dynamic");
  ASSERT_NE(dynamic, nullptr);
  EXPECT_EQ((*dynamic)["max_score"], 12.0);
  EXPECT_NE((*dynamic)["output"].get<std::string>().find("out_of_bounds"), std::string::npos);
  EXPECT_NE(find_test(j, "build"), nullptr);
}

TEST(Gradescope, PerformanceNotMeasuredInEmulationIsNoFailedTest) {
  report r = testing::sample_report();
  r.environment.backend = backend_kind::emu;
  for (auto& k : r.kernels) {
    *r.score -= k.performance_score;
    k.score -= k.performance_score;
    r.max_score -= k.performance_max;
    k.max_score -= k.performance_max;
    k.performance_score = 0;
    k.performance_max = 0;
    k.performance_note = "not measured in emulation (needs a GPU): its 5 performance points come "
                         "from the GPU grading";
  }
  const json j = gradescope_json(redact(r));
  const json* perf = find_test(j, "matmul_naive / performance");
  ASSERT_NE(perf, nullptr) << j.dump(2);
  EXPECT_EQ((*perf)["status"], "passed");
  EXPECT_EQ((*perf)["score"], 0.0);
  EXPECT_EQ((*perf)["max_score"], 0.0);
  EXPECT_NE((*perf)["output"].get<std::string>().find("measured on the GPU run"),
            std::string::npos);
  for (const json& t : j["tests"]) {
    if (t["name"].get<std::string>().ends_with("/ performance")) {
      EXPECT_EQ(t["status"], "passed") << t.dump();
    }
  }
  EXPECT_NE(j["output"].get<std::string>().find("Graded in emulation"), std::string::npos);
  EXPECT_NEAR(scores_sum(j), *r.score, 1e-9) << j.dump(2);
}

TEST(Gradescope, HiddenGroupKeepsItsVisibilityAndNoDetails) {
  const json j = gradescope_json(redact(testing::sample_report()));
  const json* hidden = find_test(j, "matmul_tiled / hidden_edge");
  ASSERT_NE(hidden, nullptr);
  EXPECT_EQ((*hidden)["visibility"], "hidden");
  EXPECT_EQ((*hidden)["output"], "0 of 1 cases passed (hidden cases: no details are shown)");
  EXPECT_EQ((*hidden)["max_score"], 4.0);
}

TEST(Gradescope, TestScoresAddUpToTheScore) {
  const report r = testing::sample_report();
  const json j = gradescope_json(redact(r));
  EXPECT_NEAR(scores_sum(j), *r.score, 1e-9) << j.dump(2);
  const json* late = find_test(j, "late penalty");
  ASSERT_NE(late, nullptr);
  EXPECT_EQ((*late)["score"], -1.5);
}

TEST(Gradescope, KernelZeroedDespiteGroupsIsOneTestSoScoresStillAddUp) {
  report r = testing::sample_report();
  r.kernels[0].status = kernel_status::forbidden;
  r.kernels[0].forbidden_symbols = {"cublasSgemm"};
  r.kernels[0].score = 0;
  r.kernels[0].performance_score = 0;
  *r.score -= 12;
  const json j = gradescope_json(redact(r));
  EXPECT_NEAR(scores_sum(j), *r.score, 1e-9);
  const json* k = find_test(j, "matmul_naive");
  ASSERT_NE(k, nullptr);
  EXPECT_NE((*k)["output"].get<std::string>().find("cublasSgemm"), std::string::npos);
}

TEST(Gradescope, UngradableReportCarriesNoScoreAnywhere) {
  report r = testing::sample_report();
  mark_ungradable(r, "CUDA driver version is insufficient");
  const json j = gradescope_json(redact(r));
  EXPECT_FALSE(j.contains("score"));
  for (const json& t : j["tests"]) {
    EXPECT_FALSE(t.contains("score")) << t.dump();
  }
  EXPECT_NE(j.dump().find("CUDA driver version is insufficient"), std::string::npos);
}

TEST(Gradescope, InvalidUtf8AndControlsNeitherThrowNorReachTheOutputRaw) {
  report r = testing::sample_report();
  r.build.log = "error: \xff\xfe bad bytes \x1b]52;c;aGk=\x07";
  r.build.summary = r.build.log;
  const std::string text = render_gradescope(redact(r));
  const json j = json::parse(text, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  // `output` is the text summary: its controls escaped, shown as text in Gradescope.
  const std::string output = j.value("output", "");
  EXPECT_NE(output.find("\\x1b]52;c;aGk=\\x07"), std::string::npos) << output;
  EXPECT_EQ(output.find('\x1b'), std::string::npos) << output;
}

} // namespace
} // namespace cugrade::reports
