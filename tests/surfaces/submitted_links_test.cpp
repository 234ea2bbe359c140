// Links in a plain-folder submission are never followed (issue 36, item 1): a matmul.cu that
// links to the grader's environment, /etc/passwd, a file only the grader may read or the
// reference solution is refused as a link, and nothing of its target reaches any report or the
// terminal. Graded by the real cugrade, in `grade` and in `check`.
#include "tests/surfaces/surfaces_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace cugrade::surfaces {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* link_refusal =
    "reduction.cu is a symbolic link; submit the file itself (links are never followed)";

struct graded {
  e2e::cli_result cli;
  json report;
  std::string everything; // the terminal and every file written
};

graded grade_folder(const fs::path& folder, const fs::path& out) {
  graded g;
  g.cli = run_cugrade({"grade", small_spec().string(), folder.string(), "--backend",
                            backend(), "--out", out.string(), "--student", "s", "--format",
                            "json,text,gradescope,junit"});
  g.report = e2e::read_json(out / "s.json");
  g.everything = g.cli.out + g.cli.err;
  for (const auto& file : fs::recursive_directory_iterator(out)) {
    if (file.is_regular_file()) {
      g.everything += text_of(file.path());
    }
  }
  return g;
}

// Every kernel refused as a build error with `message`, and a report a TA can trust.
void expect_refused(const graded& g, const std::string& message) {
  EXPECT_EQ(g.cli.exit_code, 0) << g.cli.err;
  EXPECT_EQ(g.report.value("gradable", false), true);
  EXPECT_EQ(g.report["score"], 0);
  EXPECT_EQ(g.report["build"]["status"], "error");
  EXPECT_NE(g.report["build"]["log"].get<std::string>().find(message), std::string::npos)
      << g.report["build"];
  for (const auto& k : g.report["kernels"]) {
    EXPECT_EQ(k["status"], "build_error") << k;
  }
  EXPECT_TRUE(e2e::schema_errors(g.report).empty());
}

class SubmittedLink : public ::testing::Test {
protected:
  void SetUp() override {
    fs::create_directories(folder);
    open_to_everyone(root);
  }
  void TearDown() override { fs::remove_all(root); }
  fs::path root = e2e::fresh_dir("surfaces-links");
  fs::path folder = root / "submission";
  fs::path out = root / "out";
};

TEST_F(SubmittedLink, ToTheGradersEnvironmentLeaksNoSecret) {
  const std::string token = "ghp_surfaces_token_7f3a9c";
  const std::string salt = "leaderboard-salt-41d2e8";
  ::setenv("CUGRADE_GIT_TOKEN", token.c_str(), 1);
  ::setenv("CUGRADE_LEADERBOARD_SALT", salt.c_str(), 1);
  fs::create_symlink("/proc/self/environ", folder / "reduction.cu");
  const auto g = grade_folder(folder, out);
  ::unsetenv("CUGRADE_GIT_TOKEN");
  ::unsetenv("CUGRADE_LEADERBOARD_SALT");
  expect_refused(g, link_refusal);
  EXPECT_EQ(g.everything.find(token), std::string::npos);
  EXPECT_EQ(g.everything.find(salt), std::string::npos);
}

TEST_F(SubmittedLink, ToEtcPasswdLeaksNothing) {
  fs::create_symlink("/etc/passwd", folder / "reduction.cu");
  const auto g = grade_folder(folder, out);
  expect_refused(g, link_refusal);
  EXPECT_EQ(g.everything.find("root:x:0:0"), std::string::npos);
}

TEST_F(SubmittedLink, ToAFileOnlyTheGraderMayReadLeaksNothing) {
  const fs::path secret = root / "grader-only" / "secret.txt";
  fs::create_directories(secret.parent_path());
  std::ofstream(secret) << "grader-only-secret-5b1e\n";
  fs::permissions(secret, fs::perms::owner_read | fs::perms::owner_write);
  fs::create_symlink(secret, folder / "reduction.cu");
  const auto g = grade_folder(folder, out);
  expect_refused(g, link_refusal);
  EXPECT_EQ(g.everything.find("grader-only-secret-5b1e"), std::string::npos);
}

TEST_F(SubmittedLink, ToTheReferenceSolutionEarnsNothing) {
  fs::create_symlink(e2e::source_root() / "reference" / "reduction.cu", folder / "reduction.cu");
  expect_refused(grade_folder(folder, out), link_refusal);
}

TEST_F(SubmittedLink, ToAClassmatesFileEarnsNothing) {
  const fs::path classmate = root / "classmate";
  fs::create_directories(classmate);
  std::ofstream(classmate / "reduction.cu") << reference_source();
  fs::create_symlink(classmate / "reduction.cu", folder / "reduction.cu");
  expect_refused(grade_folder(folder, out), link_refusal);
}

TEST_F(SubmittedLink, HeaderLinkedBesideTheSourceIsNotCopiedAndSaysSo) {
  const fs::path secret = root / "grader-only" / "keys.h";
  fs::create_directories(secret.parent_path());
  std::ofstream(secret) << "#error header-secret-9c0d\n";
  fs::create_symlink(secret, folder / "keys.h");
  std::ofstream(folder / "reduction.cu") << "#include \"keys.h\"\n" << reference_source();
  const auto g = grade_folder(folder, out);
  EXPECT_EQ(g.everything.find("header-secret-9c0d"), std::string::npos);
  EXPECT_EQ(g.report["build"]["status"], "error"); // keys.h is not there to include
  const auto notes = g.report["submission"]["notes"].dump();
  EXPECT_NE(notes.find("1 symbolic link was not copied (links are never followed): keys.h"),
            std::string::npos)
      << notes;
}

TEST_F(SubmittedLink, CheckRefusesItWithTheSameWords) {
  fs::create_symlink("/etc/passwd", folder / "reduction.cu");
  const auto r = run_cugrade(
      {"check", small_spec().string(), folder.string(), "--backend", backend()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE((r.out + r.err).find(link_refusal), std::string::npos) << r.out << r.err;
  EXPECT_EQ((r.out + r.err).find("root:x:0:0"), std::string::npos);
}

} // namespace
} // namespace cugrade::surfaces
