// The journal: states survive reopening, one batch per folder, settings, the files written and
// their hashes (also in a journal an earlier cugrade made).
#include "grader/batch/journal.h"
#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

namespace cugrade::batch {
namespace {

namespace fs = std::filesystem;

TEST(Journal, StatesAndReportSurviveReopening) {
  const process::temp_dir tmp("cugrade-journal-test");
  const auto dir = tmp.path() / "reopen"; // not there yet: the journal makes it
  {
    auto j = journal::open(dir);
    ASSERT_TRUE(j.ok()) << j.error();
    (*j)->enqueue("alice", "{\"repository\":\"/a\"}");
    (*j)->mark_stage("alice", student_state::fetched, 0.5);
    (*j)->mark_stage("alice", student_state::built, 1.5);
    (*j)->mark_graded("alice", "abc", "{\"report\":1}", 2.5);
    (*j)->enqueue("bob", "{}");
  }
  auto j = journal::open(dir);
  ASSERT_TRUE(j.ok()) << j.error();
  const auto alice = (*j)->find("alice");
  ASSERT_TRUE(alice);
  EXPECT_EQ(alice->state, student_state::graded);
  EXPECT_EQ(alice->commit, "abc");
  EXPECT_EQ(alice->report_json, "{\"report\":1}");
  EXPECT_EQ(alice->gradings, 1);
  EXPECT_DOUBLE_EQ(alice->build_seconds, 1.5);
  const std::vector<written_file> files{{"reports/alice.json", "ff"}, {"reports/alice.txt", "ee"}};
  (*j)->mark_written("alice", files);
  EXPECT_EQ((*j)->find("alice")->state, student_state::written);
  EXPECT_EQ((*j)->find("alice")->report_path, "reports/alice.json");
  EXPECT_EQ((*j)->find("alice")->report_sha256, "ff");
  EXPECT_EQ((*j)->find("alice")->report_files, files);
  EXPECT_EQ((*j)->find("bob")->state, student_state::queued);
  EXPECT_FALSE((*j)->find("carol"));
  EXPECT_EQ((*j)->all().size(), 2u);
}

TEST(Journal, RequeueKeepsTheCountOfGradings) {
  const process::temp_dir tmp("cugrade-journal-test");
  const auto dir = tmp.path() / "requeue"; // not there yet: the journal makes it
  auto j = journal::open(dir);
  ASSERT_TRUE(j.ok()) << j.error();
  (*j)->enqueue("alice", "1");
  (*j)->mark_graded("alice", "", "{}", 1);
  (*j)->enqueue("alice", "2");
  const auto alice = (*j)->find("alice");
  EXPECT_EQ(alice->state, student_state::queued);
  EXPECT_EQ(alice->inputs, "2");
  EXPECT_EQ(alice->gradings, 1);
}

TEST(Journal, SecondBatchOnTheSameFolderIsRefused) {
  const process::temp_dir tmp("cugrade-journal-test");
  const auto dir = tmp.path() / "lock"; // not there yet: the journal makes it
  auto first = journal::open(dir);
  ASSERT_TRUE(first.ok()) << first.error();
  const auto second = journal::open(dir);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().find("another cugrade batch is writing this folder"), std::string::npos)
      << second.error();
}

TEST(Journal, SettingsAreStoredAndReplaced) {
  const process::temp_dir tmp("cugrade-journal-test");
  const auto dir = tmp.path() / "settings"; // not there yet: the journal makes it
  auto j = journal::open(dir);
  ASSERT_TRUE(j.ok()) << j.error();
  EXPECT_FALSE((*j)->setting("backend"));
  (*j)->set_setting("backend", "emu");
  (*j)->set_setting("backend", "gpu");
  EXPECT_EQ((*j)->setting("backend").value_or(""), "gpu");
}

TEST(Journal, AJournalFromBeforeReportFilesGainsTheColumn) {
  const process::temp_dir tmp("cugrade-journal-test");
  const auto dir = tmp.path();
  {
    // The students table as cugrade made it before it kept every report file's hash.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir / "journal.sqlite").c_str(), &db), SQLITE_OK);
    const char* old_schema =
        "CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE students(student TEXT PRIMARY KEY, inputs TEXT NOT NULL, state TEXT NOT "
        "NULL, commit_sha TEXT NOT NULL DEFAULT '', report_json TEXT NOT NULL DEFAULT '', "
        "report_path TEXT NOT NULL DEFAULT '', report_sha256 TEXT NOT NULL DEFAULT '', gradings "
        "INTEGER NOT NULL DEFAULT 0, fetch_seconds REAL NOT NULL DEFAULT 0, build_seconds REAL "
        "NOT NULL DEFAULT 0, run_seconds REAL NOT NULL DEFAULT 0);"
        "INSERT INTO students(student, inputs, state, report_path, report_sha256) VALUES('bob', "
        "'{}', 'written', 'reports/bob.json', 'aa');";
    EXPECT_EQ(sqlite3_exec(db, old_schema, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  auto j = journal::open(dir);
  ASSERT_TRUE(j.ok()) << j.error();
  const auto bob = (*j)->find("bob");
  ASSERT_TRUE(bob);
  EXPECT_EQ(bob->report_sha256, "aa");
  EXPECT_TRUE(bob->report_files.empty());
  (*j)->mark_written("bob", {{"reports/bob.json", "bb"}});
  EXPECT_EQ((*j)->find("bob")->report_files,
            (std::vector<written_file>{{"reports/bob.json", "bb"}}));
}

} // namespace
} // namespace cugrade::batch
