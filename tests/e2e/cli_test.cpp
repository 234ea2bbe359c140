// End-to-end behaviour of the cugrade command line: usage errors, typos, exit codes, doctor,
// infrastructure failures, and git submissions with deadlines.

#include "harness/problems/problem.h"
#include "tests/e2e/e2e_support.h"
#include "tests/fetch/git_fixture.h"

#include <gtest/gtest.h>

namespace cugrade::e2e {
namespace {

using nlohmann::json;

std::string fixture_file(const std::string& fixture, const std::string& file) {
  return text_of(fixtures_dir() / fixture / file);
}

TEST(Cli, TypoInCommandSuggestsTheCommand) {
  const auto r = run_cugrade({"grdae", "matmul", "."});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean \"grade\""), std::string::npos) << r.err;
}

TEST(Cli, TypoInOptionSuggestsTheOption) {
  const auto r = run_cugrade({"grade", "matmul", ".", "--backnd", "emu"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean \"--backend\""), std::string::npos) << r.err;
}

TEST(Cli, UnknownAssignmentIsAUsageErrorNamingIt) {
  const auto r = run_cugrade({"grade", "matmull", ".", "--backend", "emu"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("matmull"), std::string::npos) << r.err;
}

TEST(Cli, UnknownFormatIsAUsageError) {
  const auto r = run_cugrade({"grade", "matmul", ".", "--format", "json,pdf"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("pdf"), std::string::npos) << r.err;
}

TEST(Cli, HelpListsEveryCommand) {
  const auto r = run_cugrade({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* cmd : {"grade", "check", "doctor"}) {
    EXPECT_NE(r.out.find(cmd), std::string::npos) << r.out;
  }
}

TEST(Cli, KindsListsEveryRegisteredKindOneALine) {
  const auto r = run_cugrade({"kinds"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string expected;
  for (const std::string& name : problems::names()) {
    expected += name + "\n";
  }
  EXPECT_EQ(r.out, expected);
  EXPECT_NE(r.out.find("matmul\n"), std::string::npos) << r.out;
}

TEST(Cli, KindsHelpSaysWhatItLists) {
  const auto r = run_cugrade({"kinds", "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("problem kinds"), std::string::npos) << r.out;
}

TEST(Cli, DoctorSaysEmulationWorks) {
  const auto r = run_cugrade({"doctor"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("CPU emulation"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nvcc"), std::string::npos) << r.out;
  // Which memory ceiling confined runs get here, or why there is none and how to get one.
  const bool ceiling = r.out.find("ok       memory ceiling: cgroup v") != std::string::npos;
  const bool none = r.out.find("memory ceiling: none: no writable cgroup memory controller") !=
                    std::string::npos;
  EXPECT_TRUE(ceiling || none) << r.out;
}

TEST(Cli, CheckExitsZeroOnTheReferenceAndOneOnABuggySubmission) {
  const auto good = run_cugrade(
      {"check", "reduction", source_root().string() + "/reference", "--backend", "emu"});
  EXPECT_EQ(good.exit_code, 0) << good.out << good.err;
  const auto bad =
      run_cugrade({"check", "reduction", (fixtures_dir() / "grade_modifies_input").string(),
                   "--backend", "emu"});
  EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("input_mutation"), std::string::npos) << bad.out;
}

TEST(Cli, ForcedGpuWithoutAGpuIsNotGradableAndGivesNoScore) {
  if (gpu_unavailable_reason().empty()) {
    GTEST_SKIP() << "a GPU is usable here, so --backend gpu cannot fail for want of one";
  }
  const auto out = fresh_dir("forced-gpu");
  const auto r = run_cugrade({"grade", "reduction", source_root().string() + "/reference",
                              "--backend", "gpu", "--out", out.string(), "--student", "s1"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const json report = read_json(out / "s1.json");
  ASSERT_TRUE(report.is_object()) << r.err;
  EXPECT_FALSE(report.at("gradable").get<bool>());
  EXPECT_TRUE(report.at("score").is_null());
  EXPECT_TRUE(schema_errors(report).empty());
}

TEST(Cli, GitSubmissionGradesTheLastCommitBeforeTheDeadline) {
  const fetch::testing::temp_dir tmp;
  fetch::testing::test_repo repo(tmp.path() / "alice");
  const std::string good = fixture_file("grade_missing_launcher", "reduction.cu");
  const std::string broken = fixture_file("grade_compile_error", "reduction.cu");
  const auto on_time =
      repo.commit({{"reduction.cu", good}}, fetch::testing::epoch("2026-11-01T10:00:00Z"));
  repo.commit({{"reduction.cu", broken}}, fetch::testing::epoch("2026-11-03T10:00:00Z"));
  const auto out = fresh_dir("git");
  const auto r =
      run_cugrade({"grade", "reduction", repo.file_url(), "--backend", "emu", "--deadline",
                   "2026-11-02T00:00:00Z", "--out", out.string(), "--student", "alice"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = read_json(out / "alice.json");
  EXPECT_EQ(report.at("submission").at("commit"), on_time);
  EXPECT_EQ(report.at("submission").at("late_days"), 0);
  EXPECT_EQ(kernel_named(report, "reduce_interleaved").at("status"), "passed");
}

TEST(Cli, LateCommitGetsLateDaysAndThePolicysPenalty) {
  const fetch::testing::temp_dir tmp;
  fetch::testing::test_repo repo(tmp.path() / "bob");
  repo.commit({{"reduction.cu", fixture_file("grade_missing_launcher", "reduction.cu")}},
              fetch::testing::epoch("2026-11-03T10:00:00Z"));
  const auto out = fresh_dir("late");
  const auto r =
      run_cugrade({"grade", "reduction", repo.file_url(), "--backend", "emu", "--deadline",
                   "2026-11-01T23:00:00Z", "--out", out.string(), "--student", "bob"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = read_json(out / "bob.json");
  EXPECT_EQ(report.at("submission").at("late_days"), 2);
  EXPECT_GT(report.at("late_penalty").get<double>(), 0);
  double earned = 0;
  for (const auto& k : report.at("kernels")) {
    earned += k.at("score").get<double>();
  }
  EXPECT_NEAR(report.at("score").get<double>(), earned - report.at("late_penalty").get<double>(),
              1e-9);
  EXPECT_TRUE(schema_errors(report).empty());
}

} // namespace
} // namespace cugrade::e2e
