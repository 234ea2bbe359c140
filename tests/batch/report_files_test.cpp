// A student's report files and the journal's record of them: each file's SHA-256 is kept, and a
// file that no longer holds what was written (another student's report copied over it, an edit)
// or is missing is found, so a resumed batch writes it again.
#include "grader/batch/report_files.h"
#include "grader/process/temp_dir.h"
#include "reports/redact.h"
#include "reports/report_json.h"

#include <gtest/gtest.h>

#include <fstream>

namespace cugrade::batch {
namespace {

namespace fs = std::filesystem;

std::string report_json_of(const std::string& student) {
  reports::report r;
  r.assignment_name = "reduction";
  r.submission.student = student;
  r.submission.source = "/class/" + student;
  r.created_at = "2026-12-14T10:00:00Z";
  reports::mark_ungradable(r, "no GPU");
  return reports::render_json(reports::redact(r));
}

journal_entry write(const fs::path& out, const std::string& student,
                    const std::vector<std::string>& formats) {
  const auto written = write_report_files(out, student, report_json_of(student), formats);
  EXPECT_TRUE(written.ok()) << written.error();
  journal_entry e;
  e.student = student;
  e.state = student_state::written;
  e.report_files = written->files;
  e.report_path = written->files.front().path;
  e.report_sha256 = written->files.front().sha256;
  return e;
}

TEST(ReportFiles, EveryFileIsRecordedJsonFirst) {
  const process::temp_dir tmp("cugrade-report-files-test");
  const auto e = write(tmp.path(), "alice", {"text", "gradescope"});
  ASSERT_EQ(e.report_files.size(), 3u);
  EXPECT_EQ(e.report_files[0].path, "reports/alice.json");
  EXPECT_EQ(e.report_files[1].path, "reports/alice.txt");
  EXPECT_EQ(e.report_files[2].path, "reports/alice.gradescope.json");
  EXPECT_TRUE(check_report_files(tmp.path(), e, {"text", "gradescope"}).intact());
}

TEST(ReportFiles, AFileHoldingAnotherStudentsReportIsChanged) {
  const process::temp_dir tmp("cugrade-report-files-test");
  const std::vector<std::string> formats{"gradescope", "text"};
  const auto alice = write(tmp.path(), "alice", formats);
  write(tmp.path(), "bob", formats);
  const auto reports = tmp.path() / "reports";
  fs::copy_file(reports / "bob.gradescope.json", reports / "alice.gradescope.json",
                fs::copy_options::overwrite_existing);
  const auto state = check_report_files(tmp.path(), alice, formats);
  EXPECT_FALSE(state.intact());
  EXPECT_FALSE(state.missing);
  EXPECT_EQ(state.changed, (std::vector<std::string>{"reports/alice.gradescope.json"}));
}

TEST(ReportFiles, AMissingFileOrANewFormatIsMissingNotChanged) {
  const process::temp_dir tmp("cugrade-report-files-test");
  const auto alice = write(tmp.path(), "alice", {});
  const auto asked_anew = check_report_files(tmp.path(), alice, {"text"});
  EXPECT_TRUE(asked_anew.missing);
  EXPECT_TRUE(asked_anew.changed.empty());
  fs::remove(tmp.path() / "reports" / "alice.json");
  EXPECT_TRUE(check_report_files(tmp.path(), alice, {}).missing);
}

TEST(ReportFiles, AnOlderJournalKnowsTheJsonFileAlone) {
  const process::temp_dir tmp("cugrade-report-files-test");
  auto alice = write(tmp.path(), "alice", {"text"});
  alice.report_files.clear(); // as an earlier cugrade left the row
  std::ofstream(tmp.path() / "reports" / "alice.txt") << "edited";
  EXPECT_TRUE(check_report_files(tmp.path(), alice, {"text"}).intact());
  std::ofstream(tmp.path() / "reports" / "alice.json") << "{}";
  EXPECT_EQ(check_report_files(tmp.path(), alice, {"text"}).changed,
            (std::vector<std::string>{"reports/alice.json"}));
}

} // namespace
} // namespace cugrade::batch
