// End-to-end: spec sanity and gpu_only groups (issue 39, item 9), in emulation. A shape the
// emulator cannot finish is a warning printed once, at the start; marked gpu_only, the group does
// not run in emulation, its points leave the maximum and the report says so.

#include "tests/e2e/e2e_support.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>

namespace cugrade::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

// A reduction spec: a small visible group, and "huge" (n = 2e9: about 400 s a run at reduction's
// pace of 5e6 additions a second) of the same weight.
class GpuOnlyGroups : public ::testing::Test {
protected:
  void SetUp() override { m_dir = fresh_dir("gpu-only"); }
  void TearDown() override { fs::remove_all(m_dir); }

  [[nodiscard]] std::string spec(bool gpu_only) const {
    json huge = {{"name", "huge"},
                 {"visibility", "visible"},
                 {"shapes", {{{"n", 2000000000}}}},
                 {"distributions", {"ones"}}};
    if (gpu_only)
      huge["gpu_only"] = true;
    const json spec = {{"schema", "cugrade.assignment/1"},
                       {"name", "reduction"},
                       {"problem", "reduction"},
                       {"source", "reduction.cu"},
                       {"reference", (source_root() / "reference").string()},
                       {"kernels",
                        {{{"name", "reduce_interleaved"}, {"points", 10}},
                         {{"name", "reduce_convergent"}, {"points", 10}}}},
                       {"tests",
                        {{"seed", 7},
                         {"groups",
                          {{{"name", "small"},
                            {"visibility", "visible"},
                            {"shapes", {{{"n", 3}}, {{"n", 1000}}}},
                            {"distributions", {"real_offset"}}},
                           huge}}}}};
    const fs::path file = m_dir / (gpu_only ? "gpu-only.json" : "emulated.json");
    std::ofstream(file, std::ios::binary) << spec.dump(2);
    return file.string();
  }

  [[nodiscard]] static std::string solution() { return (source_root() / "reference").string(); }

  fs::path m_dir;
};

TEST_F(GpuOnlyGroups, AShapeEmulationCannotFinishIsWarnedAboutOnceBeforeAnythingRuns) {
  // An empty folder: the check stops at the missing source, after the warning.
  fs::create_directories(m_dir / "empty");
  const auto r =
      run_cugrade({"check", spec(false), (m_dir / "empty").string(), "--backend", "emu"});
  const std::string warning = "cugrade: warning: reduction: group \"huge\": n=2000000000 needs "
                              "about 2.0e9 additions: about 7 min a run in emulation";
  EXPECT_EQ(count_of(r.err, warning), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("cugrade: warning: ", 0), 0u) << "the warning comes first:\n" << r.err;
  EXPECT_NE(r.err.find("mark the group gpu-only (\"gpu_only\": true)"), std::string::npos) << r.err;
}

TEST_F(GpuOnlyGroups, EmulationLeavesTheGroupAndItsPointsOutAndSaysSo) {
  const fs::path out = m_dir / "reports";
  const auto r = run_cugrade({"grade", spec(true), solution(), "--backend", "emu", "--student",
                              "s1", "--out", out.string(), "--format", "json,text"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << "a gpu_only group is not estimated\n"
                                                      << r.err;
  const json report = read_json(out / "s1.json");
  EXPECT_TRUE(schema_errors(report).empty());
  // Each kernel keeps the small group's half of its 10 points, and earns it.
  EXPECT_DOUBLE_EQ(report["max_score"].get<double>(), 10);
  EXPECT_DOUBLE_EQ(report["score"].get<double>(), 10);
  for (const auto& k : report["kernels"]) {
    EXPECT_EQ(k["status"], "passed") << k.dump(2);
    EXPECT_DOUBLE_EQ(k["max_score"].get<double>(), 5);
    ASSERT_EQ(k["groups"].size(), 1u) << k["groups"].dump(2);
    EXPECT_EQ(k["groups"][0]["name"], "small");
  }
  const std::string note = "group \"huge\" is graded on a GPU only (gpu_only): it did not run in "
                           "emulation, and its 10 points are earned when graded on a GPU";
  const auto& notes = report["submission"]["notes"];
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const json& n) {
    return n.get<std::string>().starts_with(note);
  })) << notes.dump(2);
  EXPECT_NE(text_of(out / "s1.txt").find("note: " + note), std::string::npos)
      << text_of(out / "s1.txt");
}

} // namespace
} // namespace cugrade::e2e
