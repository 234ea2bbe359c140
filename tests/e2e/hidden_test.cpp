// End-to-end: hidden tests stay hidden (issue 16). The instructor's hidden groups come from a file
// of their own that `grade` merges and `check` never reads, and no student-visible text of any
// format names a hidden size, shape or value, hints included. Runs in emulation.

#include "tests/e2e/e2e_support.h"

#include <fstream>
#include <gtest/gtest.h>
#include <regex>

namespace cugrade::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void put_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// A small histogram spec whose hidden group alone has n = 1000 (and n = 5003), where the fixture
// loses one update; its visible groups pass.
class HiddenTests : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fresh_dir("hidden");
    const json spec = {{"schema", "cugrade.assignment/1"},
                       {"name", "histogram"},
                       {"problem", "histogram"},
                       {"source", "histogram.cu"},
                       {"reference", (source_root() / "reference").string()},
                       {"kernels",
                        {{{"name", "histogram_sectioned"}, {"points", 10}},
                         {{"name", "histogram_interleaved"}, {"points", 10}},
                         {{"name", "histogram_privatized"}, {"points", 10}}}},
                       {"tests",
                        {{"seed", 7},
                         {"groups",
                          {{{"name", "sizes"},
                            {"visibility", "visible"},
                            {"shapes", {{{"n", 3}}, {{"n", 4096}}}},
                            {"distributions", {"uniform"}}}}}}}};
    put_file(spec_dir() / "assignment.json", spec.dump(2));
    const json hidden = {{"schema", "cugrade.hidden/1"},
                         {"assignment", "histogram"},
                         {"groups",
                          {{{"name", "secret"},
                            {"visibility", "hidden"},
                            {"weight", 2},
                            {"shapes", {{{"n", 1000}}, {{"n", 5003}}}},
                            {"distributions", {"uniform"}}}}}};
    put_file(spec_dir() / "hidden.json", hidden.dump(2));
  }
  void TearDown() override { fs::remove_all(m_dir); }

  [[nodiscard]] fs::path spec_dir() const { return m_dir / "histogram"; }
  [[nodiscard]] static std::string submission() {
    return (fixtures_dir() / "lost_update_at_one_size").string();
  }

  fs::path m_dir;
};

// The hidden sizes and what the fixture's counts give away: n - 1 bins counted. (Not after a
// decimal point: timings such as 0.999 s are no secret.)
const std::regex hidden_numbers(R"((?:^|[^.\w])(1000|999|5003)(?!\w))");

void expect_no_hidden_numbers(const std::string& text, const std::string& where) {
  std::smatch found;
  EXPECT_FALSE(std::regex_search(text, found, hidden_numbers))
      << where << " names " << found.str() << ":\n"
      << text;
}

TEST_F(HiddenTests, GradeMergesThemAndNoFormatNamesAHiddenSize) {
  const fs::path out = m_dir / "reports";
  const auto r = run_cugrade({"grade", spec_dir().string(), submission(), "--backend", "emu",
                              "--kernel", "histogram_interleaved", "--student", "s1", "--out",
                              out.string(), "--format", "json,gradescope,junit,text"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  expect_no_hidden_numbers(r.out + r.err, "grade's output");
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(out)) {
    expect_no_hidden_numbers(text_of(entry.path()), entry.path().filename().string());
    ++files;
  }
  EXPECT_EQ(files, 4u);

  const json report = read_json(out / "s1.json");
  EXPECT_TRUE(schema_errors(report).empty());
  const json kernel = kernel_named(report, "histogram_interleaved");
  EXPECT_EQ(kernel["status"], "failed") << kernel.dump(2);
  std::size_t hidden_failed = 0;
  for (const auto& t : kernel["tests"]) {
    if (t["group"] == "secret") {
      EXPECT_EQ(t.size(), 4u) << "a hidden test carries name, group, visibility, status only: "
                              << t.dump();
      hidden_failed += t["status"] == "failed" ? 1 : 0;
    } else {
      EXPECT_EQ(t["status"], "passed") << t.dump();
    }
  }
  EXPECT_EQ(hidden_failed, 1u) << "n = 1000 fails, n = 5003 passes";
  ASSERT_FALSE(kernel["diagnosis"].empty());
  EXPECT_NE(kernel["diagnosis"][0]["message"].get<std::string>().find("hidden"), std::string::npos)
      << kernel["diagnosis"].dump(2);
}

TEST_F(HiddenTests, CheckNeverReadsTheHiddenFile) {
  const auto r = run_cugrade({"check", spec_dir().string(), submission(), "--backend", "emu",
                              "--kernel", "histogram_interleaved", "--all"});
  EXPECT_EQ(r.exit_code, 0) << "only the hidden group fails\n" << r.out << r.err;
  EXPECT_EQ(r.out.find("secret"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("hidden"), std::string::npos) << r.out;
  expect_no_hidden_numbers(r.out + r.err, "check's output");
}

TEST_F(HiddenTests, CheckWorksWhenTheHiddenFileIsUnreadable) {
  put_file(spec_dir() / "hidden.json", "{ this is the instructor's, not yours");
  const auto r = run_cugrade({"check", spec_dir().string(), submission(), "--backend", "emu",
                              "--kernel", "histogram_interleaved"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto g =
      run_cugrade({"grade", spec_dir().string(), submission(), "--backend", "emu", "--kernel",
                   "histogram_interleaved", "--out", (m_dir / "reports").string()});
  EXPECT_EQ(g.exit_code, 2) << "grade reads it and says what is wrong\n" << g.err;
  EXPECT_NE(g.err.find("hidden.json"), std::string::npos) << g.err;
}

} // namespace
} // namespace cugrade::e2e
