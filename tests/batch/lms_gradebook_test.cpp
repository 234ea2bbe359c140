// The gradebooks from journaled rows: gradebook.csv's row for a student without a score, and
// the Canvas, Moodle and Blackboard files in their documented layouts (docs/batch.md, "Gradebooks
// for an LMS"), read back with libcsv; and what each LMS needs refused before grading.
#include "grader/batch/csv_table.h"
#include "grader/batch/gradebook.h"
#include "grader/batch/lms_gradebook.h"
#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>

namespace cugrade::batch {
namespace {

using table = std::vector<std::vector<std::string>>;

table read_table_back(const std::string& text) {
  const process::temp_dir tmp("cugrade-lms-test");
  std::ofstream(tmp.path() / "g.csv", std::ios::binary) << text;
  const auto rows = read_csv(tmp.path() / "g.csv");
  EXPECT_TRUE(rows.ok()) << rows.error();
  table out;
  for (const auto& r : rows ? *rows : std::vector<csv_row>{}) {
    out.push_back(r.fields);
  }
  return out;
}

// A class of two: alice graded (29.589776573699904 of 50), bob not gradable.
struct two_students {
  two_students() {
    class_roster.file = "roster.csv";
    class_roster.columns = {{"student", 0}, {"repository", 1}, {"lms_id", 2}};
    roster_entry alice{"alice", "/a", {}, {}, "", 2};
    alice.lms = {{"lms_id", "4021"},   {"sis_user_id", "S-1"},  {"sis_login_id", "alice@uni"},
                 {"section", "Sec 1"}, {"first_name", "Alice"}, {"last_name", "Liddell"}};
    roster_entry bob{"bob", "/b", {}, {}, "", 3};
    bob.lms = {{"lms_id", "4022"}, {"name", "=Bob"}};
    class_roster.entries = {alice, bob};
    reports::report graded;
    graded.score = 29.589776573699904;
    graded.max_score = 50;
    graded.kernels.push_back({});
    graded.kernels.back().name = "matmul_naive";
    graded.kernels.back().score = 29.589776573699904;
    reports::report broken;
    reports::mark_ungradable(broken, "cannot fetch the submission");
    rows = {{&class_roster.entries[0], graded, "reports/alice.json", ""},
            {&class_roster.entries[1], broken, "reports/bob.json", "cannot fetch the submission"}};
  }
  roster class_roster;
  std::vector<gradebook_row> rows;
  lms_assignment assignment{"Matmul", "731", 50};
};

TEST(Gradebook, AStudentWithoutAScoreHasTheAssignmentsMaxScoreAndAnEmptyScore) {
  const two_students c;
  const auto t = read_table_back(render_gradebook(c.rows, {"matmul_naive"}, 50));
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0], (std::vector<std::string>{"student", "score", "max_score", "matmul_naive_score",
                                            "late_days", "late_penalty", "gradable", "commit",
                                            "report", "reason"}));
  EXPECT_EQ(t[1][1], "29.589776573699904"); // the generic file keeps every digit, as before
  EXPECT_EQ(t[2], (std::vector<std::string>{"bob", "", "50", "", "0", "0", "false", "",
                                            "reports/bob.json", "cannot fetch the submission"}));
}

TEST(LmsGradebook, CanvasHasItsSixColumnsAPointsPossibleRowAndEmptyCellsWithoutAScore) {
  const two_students c;
  const auto t =
      read_table_back(render_lms_gradebook(gradebook_format::canvas, c.rows, c.assignment));
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0], (std::vector<std::string>{"Student", "ID", "SIS User ID", "SIS Login ID",
                                            "Section", "Matmul (731)"}));
  EXPECT_EQ(t[1], (std::vector<std::string>{"Points Possible", "", "", "", "", "50"}));
  EXPECT_EQ(t[2], (std::vector<std::string>{"Liddell, Alice", "4021", "S-1", "alice@uni", "Sec 1",
                                            "29.59"}));
  // bob's name starts with '=': neutralised as in every spreadsheet file.
  EXPECT_EQ(t[3], (std::vector<std::string>{"'=Bob", "4022", "", "", "", ""}));
}

TEST(LmsGradebook, MoodleHasTheIdentifierFirstAndOneGradeColumn) {
  const two_students c;
  const auto t =
      read_table_back(render_lms_gradebook(gradebook_format::moodle, c.rows, c.assignment));
  EXPECT_EQ(t, (table{{"lms_id", "Matmul"}, {"4021", "29.59"}, {"4022", ""}}));
}

TEST(LmsGradebook, BlackboardQuotesEveryFieldAndNamesTheColumnId) {
  const two_students c;
  const auto text = render_lms_gradebook(gradebook_format::blackboard, c.rows, c.assignment);
  EXPECT_EQ(text, "\"Last Name\",\"First Name\",\"Username\",\"Matmul [Total Pts: 50 Score] "
                  "|731\"\n"
                  "\"Liddell\",\"Alice\",\"4021\",\"29.59\"\n"
                  "\"\",\"\",\"4022\",\"\"\n");
}

TEST(LmsGradebook, FormatNamesRoundTrip) {
  for (const auto* name : {"generic", "canvas", "moodle", "blackboard"}) {
    const auto f = gradebook_format_named(name);
    ASSERT_TRUE(f) << name;
    EXPECT_EQ(to_string(*f), name);
  }
  EXPECT_FALSE(gradebook_format_named("gradescope"));
  EXPECT_EQ(lms_gradebook_file(gradebook_format::canvas), "gradebook-canvas.csv");
}

std::string problems(gradebook_format f, const roster& r, const std::string& name,
                     const std::string& id) {
  const auto checked = check_lms_gradebook_inputs(f, r, name, id);
  EXPECT_FALSE(checked.ok());
  return checked.ok() ? "" : checked.error();
}

TEST(LmsGradebook, EachFormatRefusesARowItCannotMatchNamingFileLineAndColumn) {
  two_students c;
  c.class_roster.entries[1].lms.clear(); // bob has no id at all
  c.class_roster.entries[0].lms["lms_id"] = "alice";
  const auto canvas = problems(gradebook_format::canvas, c.class_roster, "", "731");
  EXPECT_NE(canvas.find("roster.csv:3: column 3 (lms_id): empty, and --gradebook canvas needs it: "
                        "Canvas matches each row to a student by ID"),
            std::string::npos)
      << canvas;
  EXPECT_NE(canvas.find("roster.csv:2: column 3 (lms_id): \"alice\" is not a Canvas user ID"),
            std::string::npos)
      << canvas;
  const auto moodle = problems(gradebook_format::moodle, c.class_roster, "", "");
  EXPECT_NE(moodle.find("roster.csv:3: column 3 (lms_id): empty, and --gradebook moodle needs it"),
            std::string::npos)
      << moodle;
  EXPECT_EQ(moodle.find("roster.csv:2"), std::string::npos) << moodle; // any Moodle id will do
  c.class_roster.columns.erase("lms_id");
  const auto blackboard = problems(gradebook_format::blackboard, c.class_roster, "", "_55_1");
  EXPECT_NE(blackboard.find("roster.csv:1: the header has no \"lms_id\" column, and --gradebook "
                            "blackboard needs one: Blackboard matches each row to a student by "
                            "Username"),
            std::string::npos)
      << blackboard;
}

TEST(LmsGradebook, ASisIdIsEnoughForCanvas) {
  two_students c;
  c.class_roster.entries[1].lms = {{"sis_login_id", "bob@uni"}};
  c.class_roster.columns.emplace("sis_login_id", 3);
  EXPECT_TRUE(check_lms_gradebook_inputs(gradebook_format::canvas, c.class_roster, "", "731").ok());
}

TEST(LmsGradebook, TheAssignmentIdIsRequiredWhereTheLmsMatchesColumnsByIt) {
  const two_students c;
  EXPECT_NE(problems(gradebook_format::canvas, c.class_roster, "", "")
                .find("--gradebook canvas needs --lms-assignment-id: the Canvas assignment's ID"),
            std::string::npos);
  EXPECT_NE(problems(gradebook_format::canvas, c.class_roster, "", "hw1")
                .find("--lms-assignment-id \"hw1\": a Canvas assignment ID is digits only"),
            std::string::npos);
  EXPECT_NE(problems(gradebook_format::blackboard, c.class_roster, "", "")
                .find("without it Blackboard would add a text column worth 0 points"),
            std::string::npos);
  EXPECT_NE(problems(gradebook_format::blackboard, c.class_roster, "a|b", "55")
                .find("--lms-assignment \"a|b\": a control character or a |"),
            std::string::npos);
  EXPECT_NE(problems(gradebook_format::moodle, c.class_roster, "", "9")
                .find("Moodle's CSV import does not read one"),
            std::string::npos);
  EXPECT_NE(problems(gradebook_format::generic, c.class_roster, "", "9")
                .find("add --gradebook canvas, moodle or blackboard"),
            std::string::npos);
  EXPECT_TRUE(check_lms_gradebook_inputs(gradebook_format::generic, c.class_roster, "", "").ok());
  EXPECT_TRUE(
      check_lms_gradebook_inputs(gradebook_format::blackboard, c.class_roster, "", "_55_1").ok());
}

} // namespace
} // namespace cugrade::batch
