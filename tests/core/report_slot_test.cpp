#include "grader/core/report_slot.h"
#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>

namespace cugrade::grader {
namespace {

namespace fs = std::filesystem;

class ReportSlot : public testing::Test {
protected:
  void SetUp() override {
    fs::create_directories(m_dir / "coll" / "alice" / "hw");
    fs::create_directories(m_dir / "coll" / "bob" / "hw");
  }
  void write_report(const std::string& name, const std::string& source, bool gradable) {
    std::ofstream(m_dir / name) << R"({"submission": {"source": ")" << source
                                << R"("}, "gradable": )" << (gradable ? "true" : "false") << "}";
  }
  process::temp_dir m_tmp{"cugrade-slot"};
  fs::path m_dir = m_tmp.path();
};

TEST_F(ReportSlot, SiblingFoldersOfTheSameNameGetDifferentIds) {
  EXPECT_EQ(default_student_id((m_dir / "coll" / "alice" / "hw").string()), "alice-hw");
  EXPECT_EQ(default_student_id((m_dir / "coll" / "bob" / "hw/").string()), "bob-hw");
}

TEST_F(ReportSlot, UrlsLeaveOutSchemeAndHost) {
  EXPECT_EQ(default_student_id("https://github.com/course/alice-matmul.git"),
            "course-alice-matmul");
  EXPECT_EQ(default_student_id("git@github.com:course/bob.git"), "course-bob");
  EXPECT_EQ(default_student_id("https://host/bob.git"), "bob");
}

TEST_F(ReportSlot, OneLocalSourceHasOneSpellingWhateverTheRoute) {
  const auto alice = m_dir / "coll" / "alice" / "hw";
  EXPECT_EQ(canonical_source(alice.string()), canonical_source((alice / ".." / "hw").string()));
  EXPECT_EQ(canonical_source("https://host/x.git"), "https://host/x.git");
}

TEST_F(ReportSlot, RefusesAReportOfAnotherSourceNamingBoth) {
  const auto alice = canonical_source((m_dir / "coll" / "alice" / "hw").string());
  const auto bob = canonical_source((m_dir / "coll" / "bob" / "hw").string());
  write_report("hw.json", alice, true);
  EXPECT_TRUE(check_same_source(m_dir / "hw.json", alice).ok());
  const auto refused = check_same_source(m_dir / "hw.json", bob);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.why().kind, failure_kind::usage);
  EXPECT_NE(refused.error().find(alice), std::string::npos) << refused.error();
  EXPECT_NE(refused.error().find(bob), std::string::npos) << refused.error();
  EXPECT_NE(refused.error().find("--force"), std::string::npos) << refused.error();
  EXPECT_TRUE(check_same_source(m_dir / "absent.json", bob).ok());
}

TEST_F(ReportSlot, NotGradableGoesBesideAGradableReportOnly) {
  write_report("s1.json", "x", true);
  write_report("s2.json", "x", false);
  EXPECT_EQ(report_basename(m_dir, "s1", false), "s1.not-gradable");
  EXPECT_EQ(report_basename(m_dir, "s1", true), "s1");
  EXPECT_EQ(report_basename(m_dir, "s2", false), "s2");
  EXPECT_EQ(report_basename(m_dir, "s3", false), "s3");
}

TEST_F(ReportSlot, AnIdEndingInAReportFileStemIsRefused) {
  const auto given = check_report_id("eve.gradescope", true);
  ASSERT_FALSE(given.ok());
  EXPECT_EQ(given.why().kind, failure_kind::usage);
  EXPECT_NE(given.error().find("--student eve.gradescope: \"eve.gradescope\" ends in "
                               "\".gradescope\""),
            std::string::npos)
      << given.error();
  const auto derived = check_report_id("coll-eve.Not-Gradable", false);
  ASSERT_FALSE(derived.ok());
  EXPECT_NE(derived.error().find("the student id coll-eve.Not-Gradable (from the submission's "
                                 "path)"),
            std::string::npos)
      << derived.error();
  EXPECT_NE(derived.error().find("(--student ID)"), std::string::npos) << derived.error();
  EXPECT_TRUE(check_report_id("eve", true).ok());
  EXPECT_TRUE(check_report_id("gradescope-eve", false).ok());
}

} // namespace
} // namespace cugrade::grader
