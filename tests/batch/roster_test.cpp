// The roster: libcsv parsing, validation with file, line, column and fix, GitHub Classroom.
#include "grader/batch/roster.h"
#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace cugrade::batch {
namespace {

namespace fs = std::filesystem;

fs::path write_roster(const std::string& name, const std::string& text) {
  static const process::temp_dir dir("cugrade-roster-test"); // removed when the program exits
  const auto path = dir.path() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string error_of(const std::string& text, const roster_options& o = {}) {
  const auto r = load_roster(write_roster("r.csv", text), o);
  EXPECT_FALSE(r.ok()) << "expected the roster to be refused:\n" << text;
  return r.ok() ? "" : r.error();
}

TEST(Roster, ReadsColumnsInAnyOrderWithQuotesAndOptionalFields) {
  const auto path =
      write_roster("ok.csv", "\xEF\xBB\xBFnickname,repository,student,deadline,commit\n"
                             "speedy,\"/repos/a, with comma\",alice,2026-12-20T12:00:00Z,\n"
                             ",https://host/org/b.git,bob,,abc123\n\n");
  const auto r = load_roster(path);
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->entries.size(), 2u);
  EXPECT_EQ(r->entries[0].student, "alice");
  EXPECT_EQ(r->entries[0].repository, "/repos/a, with comma");
  EXPECT_EQ(r->entries[0].deadline.value_or(""), "2026-12-20T12:00:00Z");
  EXPECT_FALSE(r->entries[0].commit);
  EXPECT_EQ(r->entries[0].nickname, "speedy");
  EXPECT_EQ(r->entries[0].line, 2u);
  EXPECT_EQ(r->entries[1].commit.value_or(""), "abc123");
  EXPECT_FALSE(r->entries[1].deadline);
  EXPECT_EQ(r->entries[1].line, 3u);
}

TEST(Roster, MissingRepositoryColumnNamesTheHeaderAndTheTemplateOption) {
  const auto e = error_of("student,repo\nalice,/x\n");
  EXPECT_NE(e.find("r.csv:1: the header has no \"repository\" column (it has: repo, student)"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("--repository-template"), std::string::npos) << e;
}

TEST(Roster, DuplicateStudentNamesBothLines) {
  const auto e = error_of("student,repository\nalice,/a\nbob,/b\nalice,/c\n");
  EXPECT_NE(e.find("r.csv:4: column 1 (student): student \"alice\" is already on line 2"),
            std::string::npos)
      << e;
}

TEST(Roster, IdsDifferingOnlyByCaseNameBothLines) {
  // One report file on a case-insensitive disk.
  const auto e = error_of("student,repository\nalice,/a\nbob,/b\nAlice,/c\nBOB,/d\n");
  EXPECT_NE(e.find("r.csv:4: column 1 (student): student \"Alice\" differs only by case from "
                   "\"alice\" on line 2"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("r.csv:5: column 1 (student): student \"BOB\" differs only by case from "
                   "\"bob\" on line 3"),
            std::string::npos)
      << e;
}

TEST(Roster, IdsThatWouldNameAnotherStudentsReportFileAreRefused) {
  const auto e = error_of("student,repository\neve,/a\neve.gradescope,/b\nEve.JUnit,/c\n"
                          "mallory.Not-Gradable,/d\neve.json,/e\ngradescope.eve,/f\n");
  EXPECT_NE(e.find("r.csv:3: column 1 (student): \"eve.gradescope\" ends in \".gradescope\" (in "
                   "any case), which begins a report file suffix: eve.gradescope.json is the "
                   "gradescope file of a student \"eve\""),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("r.csv:4: column 1 (student): \"Eve.JUnit\" ends in \".junit\""),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("r.csv:5: column 1 (student): \"mallory.Not-Gradable\" ends in "
                   "\".not-gradable\""),
            std::string::npos)
      << e;
  // Names that only contain a format's word are fine.
  EXPECT_EQ(e.find("r.csv:6"), std::string::npos) << e;
  EXPECT_EQ(e.find("r.csv:7"), std::string::npos) << e;
  EXPECT_EQ(e.find("r.csv:2"), std::string::npos) << e;
}

TEST(Roster, EmptyRepositoryAndBadDeadlineAreAllListed) {
  const auto e =
      error_of("student,repository,deadline\nalice,,\nbob,/b,next tuesday\ncarol,/c,2026-13-45\n");
  EXPECT_NE(e.find("r.csv:2: column 2 (repository): empty repository; give a directory"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("r.csv:3: column 3 (deadline): \"next tuesday\" is not an ISO-8601 time"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("r.csv:4: column 3 (deadline): \"2026-13-45\""), std::string::npos) << e;
}

TEST(Roster, StudentIdsMustBeUsableAsFileNames) {
  const auto e = error_of("student,repository\n../evil,/a\n,/b\n");
  EXPECT_NE(e.find("r.csv:2: column 1 (student): \"../evil\" cannot name a report file"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("r.csv:3: column 1 (student): empty student id"), std::string::npos) << e;
}

TEST(Roster, UnclosedQuoteIsRefusedWithItsLine) {
  const auto e = error_of("student,repository\nalice,\"/a\nbob,/b\n");
  EXPECT_NE(e.find("r.csv:"), std::string::npos) << e;
  EXPECT_NE(e.find("quote"), std::string::npos) << e;
}

TEST(Roster, EmptyFileAndHeaderOnlyAreRefused) {
  EXPECT_NE(error_of("").find("the roster is empty"), std::string::npos);
  EXPECT_NE(error_of("student,repository\n").find("no students"), std::string::npos);
}

TEST(Roster, GithubClassroomExportWithRepositoryTemplate) {
  const auto path =
      write_roster("classroom.csv", "\"identifier\",\"github_username\",\"github_id\",\"name\"\n"
                                    "\"s001\",\"octocat\",\"583231\",\"Mona Lisa\"\n"
                                    "\"s002\",\"hubot\",\"1\",\"Hu Bot\"\n");
  const auto r = load_roster(path, {"https://github.com/org/matmul-{github_username}"});
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->entries.size(), 2u);
  EXPECT_EQ(r->entries[0].student, "s001");
  EXPECT_EQ(r->entries[0].repository, "https://github.com/org/matmul-octocat");
  EXPECT_EQ(r->entries[1].repository, "https://github.com/org/matmul-hubot");
}

TEST(Roster, ClassroomRowWithoutLinkedAccountIsRefused) {
  const auto e = error_of("identifier,github_username\ns001,octocat\ns002,\n",
                          {"https://github.com/org/hw-{github_username}"});
  EXPECT_NE(e.find("r.csv:3: column 2 (github_username): empty, so --repository-template has "
                   "nothing to fill in"),
            std::string::npos)
      << e;
}

TEST(Roster, LmsColumnsAreReadForTheGradebooks) {
  const auto path = write_roster(
      "lms.csv", "student,repository,lms_id,sis_user_id,sis_login_id,section,name,first_name,"
                 "last_name\n"
                 "alice,/a,4021,S-1,alice@uni.example,Sec 1,\"Liddell, Alice\",Alice,Liddell\n"
                 "bob,/b,,,,,,,\n");
  const auto r = load_roster(path);
  ASSERT_TRUE(r.ok()) << r.error();
  const auto& alice = r->entries[0].lms;
  EXPECT_EQ(alice.at("lms_id"), "4021");
  EXPECT_EQ(alice.at("sis_user_id"), "S-1");
  EXPECT_EQ(alice.at("sis_login_id"), "alice@uni.example");
  EXPECT_EQ(alice.at("section"), "Sec 1");
  EXPECT_EQ(alice.at("name"), "Liddell, Alice");
  EXPECT_EQ(alice.at("first_name"), "Alice");
  EXPECT_EQ(alice.at("last_name"), "Liddell");
  EXPECT_TRUE(r->entries[1].lms.empty()); // empty cells are left out
  EXPECT_EQ(r->columns.at("lms_id"), 2u);
}

TEST(Roster, LmsIdsWithSpacesOrControlsOrRepeatedAreRefusedWithLineAndColumn) {
  const auto e = error_of("student,repository,lms_id,sis_user_id\n"
                          "alice,/a,\" alice\",S1\n" // libcsv trims unquoted fields' ends
                          "bob,/b,bob\x1b[2J,S2\n"
                          "carol,/c,carol,S1\n"
                          "dave,/d,carol,S4\n");
  EXPECT_NE(e.find("r.csv:2: column 3 (lms_id): \" alice\" has a space at an end or a control "
                   "character, and the LMS matches it exactly"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("r.csv:3: column 3 (lms_id): \"bob\\x1b[2J\" has a space"), std::string::npos)
      << e;
  EXPECT_NE(e.find("r.csv:4: column 4 (sis_user_id): \"S1\" is already the sis_user_id of line 2"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("r.csv:5: column 3 (lms_id): \"carol\" is already the lms_id of line 4"),
            std::string::npos)
      << e;
}

TEST(Roster, NamesMayHaveSpacesAtTheirEnds) {
  // Only ids are matched exactly; a name with a trailing space (a classroom export) is kept.
  const auto r =
      load_roster(write_roster("names.csv", "student,repository,name\nalice,/a,\"Alice \"\n"));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->entries[0].lms.at("name"), "Alice ");
}

} // namespace
} // namespace cugrade::batch
