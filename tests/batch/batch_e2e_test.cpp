// `cugrade batch` end to end on the emulator: a 40-student class (plain folders, local git
// repositories with a deadline and extensions, a missing repository, a compile error, a hang)
// gives the expected gradebook; SIGKILL at five points then the same command gives the same
// gradebook and reports as an uninterrupted run; malformed rosters are refused before grading.
//
// Speed on 2 shared cores: the reduction assignment (the fastest to build and run) with a small
// spec (tests/batch/small_reduction.json: awkward sizes up to 10007), so one grading costs about
// a second of CPU, mostly the build. The kill test leaves out submissions whose report depends on
// time (a hang; a barrier fault, whose repeated runner restarts draw on the kernel's time
// budget), since its point is that the batch adds no difference of its own.
#include "grader/batch/csv_table.h"
#include "grader/batch/journal.h"
#include "grader/process/process.h"
#include "tests/e2e/e2e_support.h"
#include "tests/fetch/git_fixture.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

namespace cugrade::e2e {
namespace {

namespace fs = std::filesystem;
using fetch::testing::epoch;
using fetch::testing::test_repo;

const std::string spec_path = std::string(CUGRADE_SOURCE_DIR) + "/tests/batch/small_reduction.json";
// The spec's deadline is 2026-12-15T23:59:00Z.
constexpr const char* before_deadline = "2026-12-14T10:00:00Z";
constexpr const char* after_deadline = "2026-12-16T10:00:00Z"; // 1 day late
constexpr const char* extension = "2026-12-18T23:59:00Z";

std::string source_of(const std::string& fixture) {
  return text_of(fixture == "reference" ? source_root() / "reference" / "reduction.cu"
                                        : fixtures_dir() / fixture / "reduction.cu");
}

// A class under construction: submissions in `root`, rows for the roster.
struct class_builder {
  explicit class_builder(fs::path dir) : root(std::move(dir)) {}
  fs::path root;
  std::string rows = "student,repository,deadline\n";
  std::vector<std::unique_ptr<test_repo>> repos;

  void folder(const std::string& student, const std::string& fixture) {
    const auto dir = root / student;
    fs::create_directories(dir);
    std::ofstream(dir / "reduction.cu") << source_of(fixture);
    rows += student + "," + dir.string() + ",\n";
  }
  // A git repository: `early` committed before the deadline (unless empty), `late` after it.
  void repo(const std::string& student, const std::string& early, const std::string& late,
            const std::string& deadline = "") {
    auto r = std::make_unique<test_repo>(root / student);
    if (!early.empty()) {
      r->commit({{"reduction.cu", source_of(early)}}, epoch(before_deadline));
    }
    r->commit({{"reduction.cu", source_of(late)}}, epoch(after_deadline));
    rows += student + "," + r->workdir().string() + "," + deadline + "\n";
    repos.push_back(std::move(r));
  }
  fs::path roster() const {
    std::ofstream(root / "roster.csv") << rows;
    return root / "roster.csv";
  }
};

cli_result run_batch(const fs::path& roster, const fs::path& out,
                     const std::vector<std::string>& extra = {},
                     const std::string& kill_after = "") {
  process::spawn_options o;
  o.argv = {CUGRADE_BINARY, "batch",     spec_path, roster.string(), "--out",
            out.string(),   "--backend", "emu",     "--jobs",        "2"};
  o.argv.insert(o.argv.end(), extra.begin(), extra.end());
  o.env_add = {{"XDG_CACHE_HOME", (fs::temp_directory_path() / "cugrade-e2e-cache").string()},
               {"NO_COLOR", "1"}};
  if (!kill_after.empty()) {
    o.env_add.emplace_back("CUGRADE_BATCH_KILL_AFTER", kill_after);
  }
  o.time_limit_seconds = 900;
  const auto r = process::run_process(o);
  return r ? cli_result{r->shell_status(), r->stdout_text, r->stderr_text}
           : cli_result{-1, "", r.error()};
}

std::map<std::string, std::map<std::string, std::string>> gradebook(const fs::path& out) {
  std::map<std::string, std::map<std::string, std::string>> rows;
  std::istringstream in(text_of(out / "gradebook.csv"));
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::istringstream h(line); std::getline(h, line, ',');) {
    header.push_back(line);
  }
  while (std::getline(in, line)) {
    std::map<std::string, std::string> row;
    std::istringstream fields(line);
    std::string f;
    for (std::size_t i = 0; i < header.size() && std::getline(fields, f, ','); ++i) {
      row[header[i]] = f;
    }
    rows[row["student"]] = row;
  }
  return rows;
}

TEST(BatchEmu, FortyStudentClassGivesTheExpectedGradebook) {
  class_builder c(fresh_dir("batch-class"));
  for (int i = 0; i < 22; ++i) {
    c.folder("good" + std::to_string(i), "reference");
  }
  for (int i = 0; i < 4; ++i) {
    c.folder("compile" + std::to_string(i), "grade_compile_error");
    c.folder("missing" + std::to_string(i), "grade_missing_launcher");
  }
  for (int i = 0; i < 2; ++i) {
    c.folder("divergent" + std::to_string(i), "emu_reduce_sync_in_if");
  }
  c.folder("hang", "grade_infinite_loop");
  c.rows += "absent," + (c.root / "no-such-repository").string() + ",\n";
  for (int i = 0; i < 3; ++i) { // graded: the early commit (missing launcher), on time
    c.repo("ontime" + std::to_string(i), "grade_missing_launcher", "reference");
  }
  for (int i = 0; i < 2; ++i) { // an extension: the later, complete commit, on time
    c.repo("extended" + std::to_string(i), "grade_missing_launcher", "reference", extension);
  }
  c.repo("late", "", "reference"); // only a commit after the deadline: 1 day late
  const auto out = c.root / "out";
  // The hang costs its limit; 30 s leaves the barrier fault's runner restarts room on a loaded
  // 2-core machine.
  const std::vector<std::string> options{"--format", "text", "--kernel-timeout", "30"};
  const auto r = run_batch(c.roster(), out, options);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto book = gradebook(out);
  ASSERT_EQ(book.size(), 40u) << text_of(out / "gradebook.csv");
  const auto expect_row = [&](const std::string& s, const std::string& score,
                              const std::string& interleaved, const std::string& convergent) {
    SCOPED_TRACE(s);
    const auto& row = book.at(s);
    EXPECT_EQ(row.at("score"), score);
    EXPECT_EQ(row.at("reduce_interleaved_score"), interleaved);
    EXPECT_EQ(row.at("reduce_convergent_score"), convergent);
    EXPECT_EQ(row.at("gradable"), "true");
    EXPECT_EQ(row.at("report"), "reports/" + s + ".json");
    EXPECT_TRUE(fs::exists(out / "reports" / (s + ".txt")));
  };
  for (int i = 0; i < 22; ++i) {
    expect_row("good" + std::to_string(i), "20", "10", "10");
  }
  for (int i = 0; i < 4; ++i) {
    expect_row("compile" + std::to_string(i), "0", "0", "0");
    expect_row("missing" + std::to_string(i), "10", "10", "0");
  }
  for (int i = 0; i < 2; ++i) {
    expect_row("divergent" + std::to_string(i), "10", "10", "0");
    EXPECT_EQ(kernel_named(read_json(out / ("reports/divergent" + std::to_string(i) + ".json")),
                           "reduce_convergent")["error_kind"],
              "barrier_divergence");
  }
  expect_row("hang", "10", "10", "0");
  EXPECT_EQ(kernel_named(read_json(out / "reports/hang.json"), "reduce_convergent")["status"],
            "timeout");
  for (int i = 0; i < 3; ++i) {
    expect_row("ontime" + std::to_string(i), "10", "10", "0");
    EXPECT_EQ(book.at("ontime" + std::to_string(i)).at("commit").size(), 40u);
  }
  for (int i = 0; i < 2; ++i) {
    expect_row("extended" + std::to_string(i), "20", "10", "10");
    EXPECT_EQ(book.at("extended" + std::to_string(i)).at("late_days"), "0");
  }
  expect_row("late", "18", "10", "10");
  EXPECT_EQ(book.at("late").at("late_days"), "1");
  EXPECT_EQ(book.at("late").at("late_penalty"), "2");
  EXPECT_EQ(book.at("absent").at("gradable"), "false");
  EXPECT_EQ(book.at("absent").at("score"), "");
  EXPECT_NE(r.out.find("absent: " + (c.root / "no-such-repository").string() + ": not found"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("--regrade absent"), std::string::npos) << r.out;
  const auto summary = read_json(out / "summary.json");
  EXPECT_EQ(summary["students"], 40);
  EXPECT_EQ(summary["outcomes"]["full_marks"], 25);
  EXPECT_EQ(summary["outcomes"]["not_gradable"], 1);
  EXPECT_EQ(summary["kernels"]["reduce_convergent"]["statuses"]["timeout"], 1);
  // A second run finds everything written and grades nobody.
  const auto again = run_batch(c.roster(), out, options);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("40 already written, 0 to write from the journal, 0 to grade"),
            std::string::npos)
      << again.err;
  // --regrade selects: the not-gradable student and one named student.
  auto regrade_options = options;
  regrade_options.insert(regrade_options.end(), {"--regrade", "not-gradable", "good3"});
  const auto regrade = run_batch(c.roster(), out, regrade_options);
  EXPECT_NE(regrade.err.find("38 already written, 0 to write from the journal, 2 to grade"),
            std::string::npos)
      << regrade.err;
  fs::remove_all(c.root);
}

TEST(BatchEmu, KilledAtFivePointsThenResumedMatchesAnUninterruptedRun) {
  class_builder c(fresh_dir("batch-kill"));
  for (int i = 0; i < 4; ++i) {
    c.folder("good" + std::to_string(i), "reference");
  }
  c.folder("compile", "grade_compile_error");
  c.folder("missing", "grade_missing_launcher");
  c.folder("missing2", "grade_missing_launcher");
  c.repo("ontime", "grade_missing_launcher", "reference");
  c.repo("late", "", "reference");
  c.rows += "absent," + (c.root / "nowhere").string() + ",\n";
  const auto roster = c.roster();
  const auto whole = run_batch(roster, c.root / "whole");
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto expected_book = text_of(c.root / "whole" / "gradebook.csv");
  const auto expected_reports = reports_without_times(c.root / "whole");
  ASSERT_EQ(expected_reports.size(), 10u);
  for (const std::string point : {"fetched:2", "built:4", "graded:5", "files:7", "written:9"}) {
    SCOPED_TRACE(point);
    const auto out = c.root / ("killed-" + point.substr(0, point.find(':')));
    const auto killed = run_batch(roster, out, {}, point);
    ASSERT_EQ(killed.exit_code, 128 + 9) << killed.err; // SIGKILL, not a clean exit
    EXPECT_FALSE(fs::exists(out / "gradebook.csv"));
    const auto resumed = run_batch(roster, out);
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_EQ(text_of(out / "gradebook.csv"), expected_book);
    EXPECT_EQ(reports_without_times(out), expected_reports);
    auto j = batch::journal::open(out);
    ASSERT_TRUE(j.ok()) << j.error();
    for (const auto& e : (*j)->all()) { // nobody graded twice
      EXPECT_EQ(e.gradings, 1) << e.student;
      EXPECT_EQ(e.state, batch::student_state::written) << e.student;
    }
  }
  fs::remove_all(c.root);
}

TEST(BatchEmu, MalformedRosterIsRefusedBeforeGrading) {
  const auto dir = fresh_dir("batch-bad-roster");
  std::ofstream(dir / "roster.csv") << "student,repository,deadline\n"
                                       "alice,/a,\n"
                                       "alice,/b,tomorrow\n"
                                       "bob,,\n";
  const auto r = run_batch(dir / "roster.csv", dir / "out");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("roster.csv:3: column 1 (student): student \"alice\" is already on line 2"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("roster.csv:3: column 3 (deadline): \"tomorrow\" is not an ISO-8601"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("roster.csv:4: column 2 (repository): empty repository"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("nothing was graded"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out"));
  std::ofstream(dir / "no-repo.csv") << "student,url\nalice,/a\n";
  const auto header = run_batch(dir / "no-repo.csv", dir / "out");
  EXPECT_EQ(header.exit_code, 2);
  EXPECT_NE(header.err.find("no-repo.csv:1: the header has no \"repository\" column"),
            std::string::npos)
      << header.err;
  fs::remove_all(dir);
}

std::vector<std::vector<std::string>> csv_table_of(const fs::path& file) {
  const auto rows = batch::read_csv(file);
  EXPECT_TRUE(rows.ok()) << rows.error();
  std::vector<std::vector<std::string>> out;
  for (const auto& r : rows ? *rows : std::vector<batch::csv_row>{}) {
    out.push_back(r.fields);
  }
  return out;
}

// The e2e fixtures as a class with LMS ids: one full marks, two partial, one not gradable; its
// gradebooks in each LMS's documented layout (docs/batch.md, "Gradebooks for an LMS"). One
// grading run; the runs after it only write the gradebooks again.
TEST(BatchEmu, LmsGradebooksOfTheE2eFixturesMatchTheDocumentedLayouts) {
  class_builder c(fresh_dir("batch-lms"));
  c.folder("good", "reference");
  c.folder("compile", "grade_compile_error");
  c.folder("missing", "grade_missing_launcher");
  c.rows += "absent," + (c.root / "no-such-repository").string() + ",\n";
  // The LMS columns, row by row (the builder writes student,repository,deadline).
  std::string rows = "student,repository,deadline,lms_id,sis_user_id,section,name,first_name,"
                     "last_name\n";
  const std::vector<std::string> lms{",101,S-101,Sec 1,\"Good, Gail\",Gail,Good",
                                     ",102,S-102,Sec 1,Coe,,", ",103,,Sec 2,,,", ",104,S-104,,,,"};
  std::istringstream in(c.rows);
  std::string line;
  std::getline(in, line);
  for (std::size_t i = 0; std::getline(in, line); ++i) {
    rows += line + lms.at(i) + "\n"; // the line ends in its empty deadline cell
  }
  c.rows = rows;
  const auto roster = c.roster();
  const auto out = c.root / "out";
  const auto canvas = run_batch(roster, out,
                                {"--gradebook", "canvas", "--lms-assignment", "Reduction",
                                 "--lms-assignment-id", "731", "--kernel-timeout", "30"});
  ASSERT_EQ(canvas.exit_code, 0) << canvas.err << canvas.out;
  EXPECT_NE(canvas.out.find("canvas gradebook: " + (out / "gradebook-canvas.csv").string()),
            std::string::npos)
      << canvas.out;
  using table = std::vector<std::vector<std::string>>;
  // Canvas: Student, ID, SIS User ID, SIS Login ID, Section, "<Assignment> (<id>)"; the optional
  // Points Possible row; a not-gradable student's cell empty.
  EXPECT_EQ(csv_table_of(out / "gradebook-canvas.csv"),
            (table{{"Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Reduction (731)"},
                   {"Points Possible", "", "", "", "", "20"},
                   {"Good, Gail", "101", "S-101", "", "Sec 1", "20"},
                   {"Coe", "102", "S-102", "", "Sec 1", "0"},
                   {"missing", "103", "", "", "Sec 2", "10"},
                   {"absent", "104", "S-104", "", "", ""}}));
  // gradebook.csv: the not-gradable student has the assignment's max_score and no score.
  const auto book = gradebook(out);
  EXPECT_EQ(book.at("absent").at("max_score"), "20");
  EXPECT_EQ(book.at("absent").at("score"), "");
  EXPECT_EQ(book.at("absent").at("gradable"), "false");
  // summary.json counts the not-gradable student apart from the partial ones.
  const auto summary = read_json(out / "summary.json");
  EXPECT_EQ(summary["outcomes"]["full_marks"], 1);
  EXPECT_EQ(summary["outcomes"]["partial"], 2);
  EXPECT_EQ(summary["outcomes"]["not_gradable"], 1);
  EXPECT_EQ(summary["outcomes"]["not_graded"], 0);
  // Moodle: the identifier first (its "Map from" default), one column named for the grade item.
  const auto moodle = run_batch(roster, out, {"--gradebook", "moodle"});
  ASSERT_EQ(moodle.exit_code, 0) << moodle.err;
  EXPECT_NE(moodle.err.find("4 already written, 0 to write from the journal, 0 to grade"),
            std::string::npos)
      << moodle.err;
  EXPECT_EQ(
      csv_table_of(out / "gradebook-moodle.csv"),
      (table{{"lms_id", "reduction"}, {"101", "20"}, {"102", "0"}, {"103", "10"}, {"104", ""}}));
  // Blackboard: every field quoted; the column named by its Column ID after |.
  const auto blackboard =
      run_batch(roster, out, {"--gradebook", "blackboard", "--lms-assignment-id", "_5521_1"});
  ASSERT_EQ(blackboard.exit_code, 0) << blackboard.err;
  EXPECT_EQ(text_of(out / "gradebook-blackboard.csv"),
            "\"Last Name\",\"First Name\",\"Username\",\"reduction [Total Pts: 20 Score] "
            "|_5521_1\"\n"
            "\"Good\",\"Gail\",\"101\",\"20\"\n"
            "\"\",\"\",\"102\",\"0\"\n"
            "\"\",\"\",\"103\",\"10\"\n"
            "\"\",\"\",\"104\",\"\"\n");
  fs::remove_all(c.root);
}

TEST(BatchEmu, AGradebookTheRosterCannotFillIsRefusedBeforeGrading) {
  const auto dir = fresh_dir("batch-lms-refused");
  std::ofstream(dir / "roster.csv") << "student,repository,lms_id\n"
                                       "alice,/a,4021\n"
                                       "bob,/b,\n";
  const auto r = run_batch(dir / "roster.csv", dir / "out", {"--gradebook", "canvas"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--gradebook canvas needs --lms-assignment-id"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("roster.csv:3: column 3 (lms_id): empty, and --gradebook canvas needs it"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("nothing was graded"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out"));
  fs::remove_all(dir);
}

TEST(BatchEmu, HelpListsTheGradebookOptions) {
  process::spawn_options o;
  o.argv = {CUGRADE_BINARY, "batch", "--help"};
  o.env_add = {{"NO_COLOR", "1"}};
  const auto r = process::run_process(o);
  ASSERT_TRUE(r.ok()) << r.error();
  const auto help = r->stdout_text;
  EXPECT_NE(help.find("--gradebook"), std::string::npos) << help;
  EXPECT_NE(help.find("canvas, moodle or blackboard"), std::string::npos) << help;
  EXPECT_NE(help.find("{generic,canvas,moodle,blackboard}"), std::string::npos) << help;
  EXPECT_NE(help.find("--lms-assignment-id"), std::string::npos) << help;
  EXPECT_NE(help.find("lms_id"), std::string::npos) << help; // the roster's columns
}

} // namespace
} // namespace cugrade::e2e
