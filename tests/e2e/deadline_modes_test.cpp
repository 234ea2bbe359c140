// Deadlines end to end (issue 39, item 2): one rule for choosing the commit and for the penalty,
// grace included, in the spec's three modes, with the arithmetic explained and no contradiction
// between the report's header and its notes. The small reduction spec (tests/batch), deadline
// 2026-12-15T23:59:00Z, 10% a day, at most 50%, 15 minutes' grace.
#include "tests/e2e/e2e_support.h"
#include "tests/fetch/git_fixture.h"

#include <gtest/gtest.h>

#include <fstream>

namespace cugrade::e2e {
namespace {

namespace fs = std::filesystem;
using fetch::testing::epoch;
using fetch::testing::test_repo;
using nlohmann::json;

std::string source_of(const std::string& fixture) {
  return text_of(fixture == "reference" ? source_root() / "reference" / "reduction.cu"
                                        : fixtures_dir() / fixture / "reduction.cu");
}

class DeadlineMode : public ::testing::Test {
protected:
  void TearDown() override { fs::remove_all(root); }

  // The small spec with its late policy's mode set.
  fs::path spec_with_mode(const std::string& mode) {
    auto spec = read_json(source_root() / "tests" / "batch" / "small_reduction.json");
    spec["late_policy"]["mode"] = mode;
    const auto path = root / ("spec-" + mode + ".json");
    std::ofstream(path) << spec.dump(2);
    return path;
  }

  json grade(const fs::path& spec, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"grade",
                                  spec.string(),
                                  repo.workdir().string(),
                                  "--backend",
                                  "emu",
                                  "--out",
                                  (root / "out").string(),
                                  "--student",
                                  "s",
                                  "--format",
                                  "json,text"};
    args.insert(args.end(), extra.begin(), extra.end());
    last = run_cugrade(args);
    EXPECT_EQ(last.exit_code, 0) << last.err;
    return read_json(root / "out" / "s.json");
  }

  std::string text_report() const { return text_of(root / "out" / "s.txt"); }

  fs::path root = fresh_dir("deadline-modes");
  test_repo repo{root / "student"};
  cli_result last;
};

TEST_F(DeadlineMode, GraceGradesTheCommitSixMinutesLateAsOnTime) {
  repo.commit({{"reduction.cu", source_of("grade_missing_launcher")}},
              epoch("2026-12-14T10:00:00Z"));
  const std::string within =
      repo.commit({{"reduction.cu", source_of("reference")}}, epoch("2026-12-16T00:05:00Z"));
  const auto report = grade(spec_with_mode("last_on_time"));
  EXPECT_EQ(report["submission"]["commit"], within);
  EXPECT_EQ(report["submission"]["late_days"], 0);
  EXPECT_EQ(report["score"], 20);
  EXPECT_NE(text_report().find("deadline: 2026-12-15T23:59:00Z, on time"), std::string::npos)
      << text_report();
  EXPECT_EQ(report["submission"]["notes"].dump().find("after the deadline"), std::string::npos)
      << report["submission"]["notes"];
}

TEST_F(DeadlineMode, LatestWithPenaltyGradesTheNewestAndExplainsThePenalty) {
  repo.commit({{"reduction.cu", source_of("grade_missing_launcher")}},
              epoch("2026-12-14T10:00:00Z"));
  const std::string newest =
      repo.commit({{"reduction.cu", source_of("reference")}}, epoch("2026-12-16T12:00:00Z"));
  const auto report = grade(spec_with_mode("latest_with_penalty"));
  EXPECT_EQ(report["submission"]["commit"], newest);
  EXPECT_EQ(report["submission"]["late_days"], 1);
  EXPECT_EQ(report["score"], 18);
  const std::string explained =
      "1 day late x 10% a day = -2.00 (policy: 10% a day, at most 50%, 15 min grace)";
  EXPECT_EQ(report["late_penalty_explanation"], explained);
  EXPECT_NE(text_report().find("(late: " + explained + ")"), std::string::npos) << text_report();
  EXPECT_TRUE(schema_errors(report).empty());
}

TEST_F(DeadlineMode, BestOfKeepsTheNewestWhenItScoresMoreAfterThePenalty) {
  const std::string on_time = repo.commit({{"reduction.cu", source_of("grade_missing_launcher")}},
                                          epoch("2026-12-14T10:00:00Z"));
  const std::string newest =
      repo.commit({{"reduction.cu", source_of("reference")}}, epoch("2026-12-16T12:00:00Z"));
  const auto report = grade(spec_with_mode("best_of"));
  EXPECT_EQ(report["submission"]["commit"], newest);
  EXPECT_EQ(report["score"], 18);
  const auto notes = report["submission"]["notes"].dump();
  EXPECT_NE(notes.find("best_of: graded the last commit on time, " + on_time.substr(0, 7) +
                       " (10.00), and the newest, " + newest.substr(0, 7) +
                       " (18.00 after 2.00 for 1 late day); kept the newest"),
            std::string::npos)
      << notes;
}

TEST_F(DeadlineMode, BestOfKeepsTheCommitOnTimeWhenTheNewestScoresLess) {
  const std::string on_time =
      repo.commit({{"reduction.cu", source_of("reference")}}, epoch("2026-12-14T10:00:00Z"));
  repo.commit({{"reduction.cu", source_of("grade_compile_error")}}, epoch("2026-12-16T12:00:00Z"));
  const auto report = grade(spec_with_mode("best_of"));
  EXPECT_EQ(report["submission"]["commit"], on_time);
  EXPECT_EQ(report["score"], 20);
  EXPECT_NE(report["submission"]["notes"].dump().find("kept the commit on time"),
            std::string::npos);
}

TEST_F(DeadlineMode, PinnedCommitsHeaderAndNotesAgree) {
  const std::string within =
      repo.commit({{"reduction.cu", source_of("reference")}}, epoch("2026-12-16T00:05:00Z"));
  auto report = grade(spec_with_mode("last_on_time"), {"--commit", within.substr(0, 10)});
  EXPECT_EQ(report["submission"]["late_days"], 0);
  EXPECT_NE(text_report().find("on time"), std::string::npos);
  EXPECT_EQ(report["submission"]["notes"].dump().find("after the deadline"), std::string::npos);
  const std::string late =
      repo.commit({{"reduction.cu", source_of("reference")}}, epoch("2026-12-17T00:05:00Z"));
  report = grade(spec_with_mode("last_on_time"), {"--commit", late.substr(0, 10)});
  EXPECT_EQ(report["submission"]["late_days"], 1);
  EXPECT_NE(text_report().find("1 day late"), std::string::npos);
  EXPECT_NE(report["submission"]["notes"].dump().find("after the deadline"), std::string::npos);
}

} // namespace
} // namespace cugrade::e2e
