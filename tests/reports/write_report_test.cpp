#include <algorithm>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "reports/atomic_file.h"
#include "reports/report_json.h"
#include "reports/schema_validator.h"
#include "reports/writers.h"
#include "sample_report.h"

namespace cugrade::reports {
namespace {

namespace fs = std::filesystem;

class WriteReport : public ::testing::Test {
protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_dir = fs::temp_directory_path() /
            ("cugrade_reports_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

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

  fs::path m_dir;
};

TEST_F(WriteReport, AtomicWriteCreatesDirectoriesAndReplacesContent) {
  const fs::path file = m_dir / "deep" / "er" / "a.json";
  std::string err;
  ASSERT_TRUE(write_file_atomically(file, "first", &err)) << err;
  EXPECT_EQ(read(file), "first");
  ASSERT_TRUE(write_file_atomically(file, "second, longer content", &err)) << err;
  EXPECT_EQ(read(file), "second, longer content");
  ASSERT_TRUE(write_file_atomically(file, "", &err)) << err;
  EXPECT_EQ(read(file), "");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(file.parent_path())) {
    names.push_back(e.path().filename().string());
  }
  EXPECT_EQ(names, std::vector<std::string>{"a.json"}) << "no temporary files are left behind";
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

TEST_F(WriteReport, AtomicWriteFailureSaysWhereAndWhy) {
  std::string err;
  ASSERT_TRUE(write_file_atomically(m_dir / "plain", "x", &err)) << err;
  EXPECT_FALSE(write_file_atomically(m_dir / "plain" / "child.json", "x", &err));
  EXPECT_NE(err.find((m_dir / "plain").string()), std::string::npos) << err;
  EXPECT_EQ(entries(), std::vector<std::string>{"plain"});
}

TEST_F(WriteReport, WritesEveryFormatUnderItsName) {
  const report r = testing::sample_report();
  const written w = write_report(r, m_dir, "alice", {"json", "gradescope", "junit", "text"});
  ASSERT_TRUE(w.ok()) << w.error;
  EXPECT_EQ(w.files, (std::vector<fs::path>{m_dir / "alice.json", m_dir / "alice.gradescope.json",
                                            m_dir / "alice.junit.xml", m_dir / "alice.txt"}));
  EXPECT_EQ(entries(), (std::vector<std::string>{"alice.gradescope.json", "alice.json",
                                                 "alice.junit.xml", "alice.txt"}));
  EXPECT_EQ(read(m_dir / "alice.json"), render_json(r));
  EXPECT_EQ(read(m_dir / "alice.gradescope.json"), render_gradescope(r));
  EXPECT_EQ(read(m_dir / "alice.junit.xml"), render_junit(r));
  EXPECT_EQ(read(m_dir / "alice.txt"), render_text(r, false));
  const auto errors = validate_report(nlohmann::json::parse(read(m_dir / "alice.json")));
  EXPECT_TRUE(errors.empty());
}

TEST_F(WriteReport, RewritingReplacesTheFiles) {
  report r = testing::sample_report();
  ASSERT_TRUE(write_report(r, m_dir, "bob", {"json"}).ok());
  mark_ungradable(r, "GPU fell off the bus");
  ASSERT_TRUE(write_report(r, m_dir, "bob", {"json"}).ok());
  std::string err;
  const auto back = report_from_json(nlohmann::json::parse(read(m_dir / "bob.json")), &err);
  ASSERT_TRUE(back) << err;
  EXPECT_FALSE(back->gradable);
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
