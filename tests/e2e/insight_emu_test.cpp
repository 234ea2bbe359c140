// End-to-end: `cugrade grade --perf` and `cugrade check --perf` in emulation on the insight
// fixtures (tests/fixtures/insight_*: one lecture idea each, written as students write them) and
// on the reference solutions: each kernel gets the insights its expect.json names ("first": the
// costliest; "has"/"lacks": among them or not; "none": nothing measurable lost), reports stay
// valid, and the references are told nothing.

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/insight_expect.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace cugrade::e2e {
namespace {

using nlohmann::json;

std::vector<std::string> insight_fixtures() {
  std::vector<std::string> out;
  for (const auto& name : fixture_names()) {
    if (name.starts_with("insight_")) {
      out.push_back(name);
    }
  }
  return out;
}

json graded_with_insight(const std::string& assignment, const std::filesystem::path& dir,
                         const std::filesystem::path& out) {
  const auto r = run_cugrade({"grade", assignment, dir.string(), "--backend", "emu", "--perf",
                              "--out", out.string(), "--student", "s", "--format", "json,text"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return read_json(out / "s.json");
}

class InsightInEmulation : public testing::TestWithParam<std::string> {};

TEST_P(InsightInEmulation, NamesTheFixturesCause) {
  const std::string fixture = GetParam();
  const json expect = read_json(fixtures_dir() / fixture / "expect.json");
  ASSERT_TRUE(expect.contains("insight")) << fixture;
  const auto out = fresh_dir(fixture);
  const json report = graded_with_insight(expect.at("assignment").get<std::string>(),
                                          fixtures_dir() / fixture, out);
  ASSERT_TRUE(report.is_object());
  EXPECT_TRUE(schema_errors(report).empty()) << testing::PrintToString(schema_errors(report));
  for (const auto& [name, wanted] : expect.at("insight").items()) {
    const json kernel = kernel_named(report, name);
    ASSERT_TRUE(kernel.contains("profile")) << name << " has no profile: " << kernel.dump(2);
    expect_insights(kernel, wanted);
    for (const auto& i : kernel.value("insights", json::array())) {
      if (i.contains("location")) { // the line is the student's, in their file
        EXPECT_TRUE(i.at("message").get<std::string>().find(i.at("location").get<std::string>()) !=
                    std::string::npos)
            << i.dump();
      }
    }
  }
  // The text summary says the costliest insight too.
  const std::string text = text_of(out / "s.txt");
  EXPECT_NE(text.find("insight:"), std::string::npos) << text;
  std::filesystem::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, InsightInEmulation, testing::ValuesIn(insight_fixtures()),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                           return param_info.param;
                         });

// The references are what the lectures teach: profiled, nothing said against them.
class ReferenceInsight : public testing::TestWithParam<std::string> {};

TEST_P(ReferenceInsight, SaysNothingAgainstTheReference) {
  const auto out = fresh_dir("reference-insight-" + GetParam());
  const json report = graded_with_insight(GetParam(), source_root() / "reference", out);
  ASSERT_TRUE(report.is_object());
  EXPECT_TRUE(schema_errors(report).empty()) << testing::PrintToString(schema_errors(report));
  for (const auto& k : report.at("kernels")) {
    ASSERT_TRUE(k.contains("profile")) << k.at("name");
    EXPECT_FALSE(k.at("profile").at("metrics").empty()) << k.at("name");
    const std::string name = k.at("name").get<std::string>();
    const auto kinds = insight_kinds(k);
    // Every reference moves what its own technique moves, the deliberately slow ones included.
    EXPECT_FALSE(has_kind(kinds, "excess_traffic")) << name << testing::PrintToString(kinds);
    // The lecture's own first forms are slow on purpose, for one reason each.
    if (name == "histogram_sectioned" || name == "histogram_interleaved") {
      EXPECT_FALSE(has_kind(kinds, "idle_lanes")) << name << testing::PrintToString(kinds);
      continue;
    }
    if (name == "matmul_naive") {
      continue;
    }
    // The Brent-Kung tree's strided indices (reference/scan.cu) conflict in shared memory, as
    // the lecture's form does; nothing else is said of it.
    if (name == "scan_brent_kung") {
      EXPECT_EQ(kinds, std::vector<std::string>(kinds.size(), "bank_conflicts")) << name;
      continue;
    }
    EXPECT_TRUE(kinds.empty()) << name << " said " << testing::PrintToString(kinds) << "\n"
                               << k.at("insights").dump(2);
  }
  std::filesystem::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Assignments, ReferenceInsight, testing::ValuesIn(assignment_names()));

TEST(CheckPerf, AStudentWithoutAGpuSeesTheInsightAndItsLine) {
  const auto r =
      run_cugrade({"check", "matmul", (fixtures_dir() / "insight_tiled_transposed_tiles").string(),
                   "--perf", "--kernel", "matmul_tiled"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("bank conflicts"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("matmul.cu:27"), std::string::npos) << r.out;
}

} // namespace
} // namespace cugrade::e2e
