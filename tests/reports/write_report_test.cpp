#include <algorithm>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "grader/process/temp_dir.h"
#include "reports/report_json.h"
#include "reports/schema_validator.h"
#include "reports/writers.h"
#include "sample_report.h"

namespace cugrade::reports {
namespace {

namespace fs = std::filesystem;

class WriteReport : public ::testing::Test {
protected:
  static std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  [[nodiscard]] std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(m_dir)) {
      names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  process::temp_dir m_tmp{"cugrade-reports"};
  fs::path m_dir = m_tmp.path() / "out"; // not there yet: write_report makes it
};

TEST_F(WriteReport, WritesEveryFormatUnderItsName) {
  const report r = testing::sample_report();
  const written w = write_report(r, m_dir, "alice", {"json", "gradescope", "junit", "text"});
  ASSERT_TRUE(w.ok()) << w.error;
  EXPECT_EQ(w.files, (std::vector<fs::path>{m_dir / "alice.json", m_dir / "alice.gradescope.json",
                                            m_dir / "alice.junit.xml", m_dir / "alice.txt"}));
  EXPECT_EQ(entries(), (std::vector<std::string>{"alice.gradescope.json", "alice.json",
                                                 "alice.junit.xml", "alice.txt"}));
  EXPECT_EQ(read(m_dir / "alice.json"), render_json(redact(r)));
  EXPECT_EQ(read(m_dir / "alice.gradescope.json"), render_gradescope(redact(r)));
  EXPECT_EQ(read(m_dir / "alice.junit.xml"), render_junit(redact(r)));
  EXPECT_EQ(read(m_dir / "alice.txt"), render_text(redact(r), false));
  const auto errors = validate_report(nlohmann::json::parse(read(m_dir / "alice.json")));
  EXPECT_TRUE(errors.empty());
}

TEST_F(WriteReport, RewritingReplacesTheFiles) {
  report r = testing::sample_report();
  ASSERT_TRUE(write_report(r, m_dir, "bob", {"json"}).ok());
  mark_ungradable(r, "GPU fell off the bus");
  ASSERT_TRUE(write_report(r, m_dir, "bob", {"json"}).ok());
  const auto back = nlohmann::json::parse(read(m_dir / "bob.json"));
  EXPECT_EQ(back["gradable"], false);
  EXPECT_EQ(back["infrastructure_error"], "GPU fell off the bus");
  EXPECT_EQ(entries(), std::vector<std::string>{"bob.json"});
}

TEST_F(WriteReport, UnknownFormatIsRefusedBeforeWritingAnything) {
  EXPECT_TRUE(is_known_format("junit"));
  EXPECT_FALSE(is_known_format("xml"));
  EXPECT_FALSE(is_known_format("JSON"));
  const written w = write_report(testing::sample_report(), m_dir, "carol", {"json", "html"});
  EXPECT_FALSE(w.ok());
  EXPECT_NE(w.error.find("\"html\""), std::string::npos);
  EXPECT_TRUE(w.files.empty());
  EXPECT_FALSE(fs::exists(m_dir));
}

} // namespace
} // namespace cugrade::reports
