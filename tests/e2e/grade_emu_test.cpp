// End-to-end: the real `cugrade` binary on the reference solutions and on every fixture, in CPU
// emulation (runs in CI, which has no GPU).

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/fixture_check.h"

#include <gtest/gtest.h>

namespace cugrade::e2e {
namespace {

using nlohmann::json;

class ReferenceInEmulation : public testing::TestWithParam<std::string> {};

TEST_P(ReferenceInEmulation, GetsFullMarksAndValidReports) {
  const std::string assignment = GetParam();
  const auto out = fresh_dir("reference-" + assignment);
  const auto r = run_cugrade({"grade", assignment, source_root().string() + "/reference",
                              "--backend", "emu", "--out", out.string(), "--student", "reference"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = read_json(out / "reference.json");
  ASSERT_TRUE(report.is_object());
  EXPECT_TRUE(schema_errors(report).empty()) << testing::PrintToString(schema_errors(report));
  EXPECT_TRUE(report.at("gradable").get<bool>());
  EXPECT_EQ(report.at("environment").at("backend"), "emu");
  EXPECT_GT(report.at("max_score").get<double>(), 0);
  EXPECT_DOUBLE_EQ(report.at("score").get<double>(), report.at("max_score").get<double>());
  for (const auto& k : report.at("kernels")) {
    EXPECT_EQ(k.at("status"), "passed") << k.dump(2).substr(0, 4000);
    for (const auto& t : k.at("tests")) {
      EXPECT_EQ(t.at("status"), "passed") << k.at("name") << " " << t.dump();
    }
  }
  // Gradescope's results.json: its field names, one test per kernel and group.
  const json gs = read_json(out / "reference.gradescope.json");
  ASSERT_TRUE(gs.is_object());
  EXPECT_DOUBLE_EQ(gs.at("score").get<double>(), report.at("score").get<double>());
  ASSERT_FALSE(gs.at("tests").empty());
  double test_points = 0;
  for (const auto& t : gs.at("tests")) {
    for (const char* field : {"name", "status", "output", "visibility"}) {
      EXPECT_TRUE(t.contains(field)) << field << " missing in " << t.dump();
    }
    // Gradescope makes per-test points optional; the build entry carries none.
    if (t.at("name") != "build") {
      EXPECT_TRUE(t.contains("score") && t.contains("max_score")) << t.dump();
      test_points += t.value("score", 0.0);
    }
  }
  EXPECT_DOUBLE_EQ(test_points, report.at("score").get<double>());
  EXPECT_TRUE(std::filesystem::exists(out / "reference.junit.xml"));
  EXPECT_TRUE(std::filesystem::exists(out / "reference.txt"));
  std::filesystem::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Assignments, ReferenceInEmulation, testing::ValuesIn(assignment_names()));

class FixtureInEmulation : public testing::TestWithParam<std::string> {};

TEST_P(FixtureInEmulation, GivesTheExpectedVerdicts) {
  check_fixture(GetParam(), "emu");
}

INSTANTIATE_TEST_SUITE_P(Fixtures, FixtureInEmulation, testing::ValuesIn(fixture_names()),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                           return param_info.param;
                         });

// Parity: one expectation for both backends, and a reason wherever they may differ.
TEST(FixtureExpectations, SayWhyTheBackendsMayDiffer) {
  ASSERT_FALSE(fixture_names().empty());
  for (const auto& fixture : fixture_names()) {
    const json expect = read_json(fixtures_dir() / fixture / "expect.json");
    ASSERT_TRUE(expect.is_object()) << fixture;
    EXPECT_TRUE(unexplained_differences(expect).empty())
        << fixture << ": " << testing::PrintToString(unexplained_differences(expect));
  }
}

TEST(FixtureExpectations, AnUnexplainedDifferenceIsNamed) {
  const json expect = json::parse(R"({"kernels": {"k": {"status_one_of": ["passed", "failed"]}},
                                      "gpu": {"kernels": {"k": {"status": "failed"}}}})");
  EXPECT_EQ(unexplained_differences(expect),
            (std::vector<std::string>{"kernels.k: status_one_of without why_status_one_of",
                                      "gpu: overrides without a why"}));
}

} // namespace
} // namespace cugrade::e2e

namespace cugrade::e2e {
namespace {

nlohmann::json diagnoses(const std::string& fixture, const std::string& tag) {
  const auto out = fresh_dir(fixture + tag);
  const auto r = run_cugrade({"grade", "matmul", (fixtures_dir() / fixture).string(), "--backend",
                              "emu", "--out", out.string(), "--student", "s", "--format", "json"});
  const nlohmann::json report = read_json(out / "s.json");
  std::filesystem::remove_all(out);
  nlohmann::json all = nlohmann::json::array();
  if (r.exit_code == 0 && report.is_object()) {
    for (const auto& k : report.at("kernels")) {
      all.push_back(k.at("diagnosis"));
    }
  }
  return all;
}

TEST(HintRanking, GradingTheSameSubmissionTwiceGivesTheSameHintsInTheSameOrder) {
  // A wrong dimension and the out-of-bounds faults it causes compete for first place.
  const auto first = diagnoses("diag_one_size_matmul", "-a");
  const auto second = diagnoses("diag_one_size_matmul", "-b");
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first, second) << first.dump(2) << "\n" << second.dump(2);
}

} // namespace
} // namespace cugrade::e2e
