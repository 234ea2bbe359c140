// Pins are hashes (issue 36, item 2): a student who pushes a branch or tag named like the TA's
// abbreviated pin, pointing at a back-dated commit with better code, is still graded on the
// pinned commit, through `grade --commit` and through a roster's commit column.
#include "tests/fetch/git_fixture.h"
#include "tests/surfaces/surfaces_support.h"

#include <gtest/gtest.h>

#include <fstream>

namespace cugrade::surfaces {
namespace {

namespace fs = std::filesystem;
using fetch::testing::epoch;
using fetch::testing::test_repo;

class HijackedPin : public ::testing::Test {
protected:
  void SetUp() override {
    open_to_everyone(root);
    pinned = repo.commit({{"reduction.cu", compile_error_source()}},
                         epoch("2026-12-10T10:00:00Z"));
    pin = pinned.substr(0, 7);
    // After the deadline: a back-dated commit under the pin's name, as a tag and a branch.
    forged = repo.commit({{"reduction.cu", reference_source()}}, epoch("2026-12-09T10:00:00Z"));
    repo.tag(pin, forged);
    repo.set_branch(pin, forged);
  }
  void TearDown() override { fs::remove_all(root); }

  fs::path root = e2e::fresh_dir("surfaces-pins");
  test_repo repo{root / "student"};
  std::string pinned, forged, pin;
};

TEST_F(HijackedPin, GradeCommitGradesTheHash) {
  const auto out = root / "out";
  const auto r = run_cugrade({"grade", small_spec().string(), repo.workdir().string(),
                                   "--commit", pin, "--backend", backend(), "--out", out.string(),
                                   "--student", "s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = e2e::read_json(out / "s.json");
  EXPECT_EQ(report["submission"]["commit"], pinned);
  EXPECT_EQ(report["score"], 0);
  EXPECT_NE(report["submission"]["notes"].dump().find("(a commit hash)"), std::string::npos)
      << report["submission"]["notes"];
}

TEST_F(HijackedPin, RosterCommitColumnGradesTheHash) {
  const auto roster = root / "roster.csv";
  std::ofstream(roster) << "student,repository,commit\nmallory," << repo.workdir().string() << ","
                        << pin << "\n";
  const auto out = root / "out";
  const auto r = run_batch(roster, out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = e2e::read_json(out / "reports" / "mallory.json");
  EXPECT_EQ(report["submission"]["commit"], pinned);
  EXPECT_EQ(report["score"], 0);
}

TEST_F(HijackedPin, BareNameIsRefusedWithItsRefsSpelling) {
  const auto r = run_cugrade({"grade", small_spec().string(), repo.workdir().string(),
                                   "--commit", "main", "--backend", backend(), "--out",
                                   (root / "out").string(), "--student", "s"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("refs/heads/main"), std::string::npos) << r.err;
}

} // namespace
} // namespace cugrade::surfaces
