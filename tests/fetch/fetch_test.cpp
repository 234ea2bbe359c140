#include "grader/fetch/fetch.h"
#include "tests/fetch/git_fixture.h"

#include <gtest/gtest.h>

#include <fstream>
#include <memory>

namespace cugrade::fetch {
namespace {

using testing::epoch;
using testing::read_file;
using testing::temp_dir;
using testing::test_repo;
using clock_point = std::chrono::system_clock::time_point;

clock_point at(const char* iso) {
  return clock_point(std::chrono::seconds(epoch(iso)));
}

/// An origin repository with three commits at t1 < t2 < t3, and a cache folder.
class FetchSubmission : public ::testing::Test {
protected:
  void SetUp() override {
    origin = std::make_unique<test_repo>(dir.path() / "origin");
    c1 = origin->commit({{"matmul.cu", "v1"}}, epoch("2026-11-20T10:00:00Z"));
    c2 = origin->commit({{"matmul.cu", "v2"}}, epoch("2026-11-21T10:00:00Z"));
    c3 = origin->commit({{"matmul.cu", "v3"}}, epoch("2026-11-23T10:00:00Z"));
  }

  [[nodiscard]] fetch_request request(std::string source) const {
    fetch_request req;
    req.source = std::move(source);
    req.cache_dir = dir.path() / "cache";
    req.fetcher = CUGRADE_FETCHER;
    return req;
  }

  /// Fetches and fails the test with the error message when it fails.
  fetched_submission fetch(const fetch_request& req) {
    auto got = fetch_submission(req);
    if (!got.ok()) {
      ADD_FAILURE() << "fetch failed: " << got.error();
      return {};
    }
    return std::move(got).value();
  }

  temp_dir dir;
  std::unique_ptr<test_repo> origin;
  std::string c1, c2, c3;
};

TEST_F(FetchSubmission, GradesHeadOfLocalRepositoryPath) {
  const auto got = fetch(request(origin->workdir().string()));
  EXPECT_TRUE(got.is_git);
  EXPECT_EQ(got.commit, c3);
  EXPECT_EQ(got.branch, "main");
  EXPECT_EQ(got.commit_time, at("2026-11-23T10:00:00Z"));
  EXPECT_FALSE(got.after_deadline);
  EXPECT_EQ(read_file(got.directory / "matmul.cu"), "v3");
  EXPECT_NE(got.directory, origin->workdir()); // graded from the cache, not the student's folder
  EXPECT_NE(got.note.find(c3.substr(0, 7)), std::string::npos) << got.note;
}

TEST_F(FetchSubmission, GradesHeadThroughFileUrl) {
  const auto got = fetch(request(origin->file_url()));
  EXPECT_EQ(got.commit, c3);
  EXPECT_EQ(got.source, origin->file_url());
  EXPECT_EQ(read_file(got.directory / "matmul.cu"), "v3");
}

TEST_F(FetchSubmission, PinsCommitByFullAndAbbreviatedSha) {
  for (const std::string& ref : {c1, c1.substr(0, 8)}) {
    auto req = request(origin->file_url());
    req.commit = ref;
    const auto got = fetch(req);
    EXPECT_EQ(got.commit, c1) << ref;
    EXPECT_EQ(read_file(got.directory / "matmul.cu"), "v1") << ref;
    EXPECT_FALSE(got.branch.has_value()) << ref;
  }
}

TEST_F(FetchSubmission, PinsCommitByTagAndBranchSpelledFromRefs) {
  origin->tag("v1.0", c2);
  origin->set_branch("draft", c1);
  auto by_tag = request(origin->file_url());
  by_tag.commit = "refs/tags/v1.0";
  const auto tagged = fetch(by_tag);
  EXPECT_EQ(tagged.commit, c2);
  EXPECT_NE(tagged.note.find("a ref name"), std::string::npos) << tagged.note;
  auto by_branch = request(origin->file_url());
  by_branch.commit = "refs/heads/draft";
  const auto got = fetch(by_branch);
  EXPECT_EQ(got.commit, c1);
  EXPECT_EQ(got.branch, "draft");
}

TEST_F(FetchSubmission, DeadlineChoosesLastCommitAtOrBeforeIt) {
  auto req = request(origin->file_url());
  req.deadline = at("2026-11-22T00:00:00Z");
  const auto got = fetch(req);
  EXPECT_EQ(got.commit, c2);
  EXPECT_FALSE(got.after_deadline);
  EXPECT_EQ(read_file(got.directory / "matmul.cu"), "v2");
  EXPECT_NE(got.note.find("1 newer commit ignored"), std::string::npos) << got.note;
}

TEST_F(FetchSubmission, GraceTakesACommitMinutesAfterTheDeadline) {
  const std::string c4 = origin->commit({{"matmul.cu", "v4"}}, epoch("2026-11-23T10:06:00Z"));
  auto req = request(origin->file_url());
  req.deadline = at("2026-11-23T10:00:00Z");
  req.grace = std::chrono::minutes(15);
  const auto got = fetch(req);
  EXPECT_EQ(got.commit, c4);
  EXPECT_FALSE(got.after_deadline);
  EXPECT_EQ(got.newest_commit, c4);
  EXPECT_NE(got.note.find("(and its 15 min grace)"), std::string::npos) << got.note;
  req.grace = std::chrono::minutes(5);
  EXPECT_EQ(fetch(req).commit, c3) << "6 minutes late is late with 5 minutes' grace";
}

TEST_F(FetchSubmission, NewestModeGradesTheTipAndMarksItLate) {
  auto req = request(origin->file_url());
  req.deadline = at("2026-11-22T00:00:00Z");
  req.newest = true;
  const auto got = fetch(req);
  EXPECT_EQ(got.commit, c3);
  EXPECT_TRUE(got.after_deadline);
  EXPECT_EQ(got.newest_commit, c3);
  EXPECT_NE(got.note.find("graded the newest commit on main"), std::string::npos) << got.note;
  EXPECT_NE(got.note.find("after the deadline"), std::string::npos) << got.note;
}

TEST_F(FetchSubmission, DeadlineReportsTheNewestCommitItDidNotGrade) {
  auto req = request(origin->file_url());
  req.deadline = at("2026-11-22T00:00:00Z");
  const auto got = fetch(req);
  EXPECT_EQ(got.commit, c2);
  EXPECT_EQ(got.newest_commit, c3);
}

TEST_F(FetchSubmission, PinWithinTheGraceIsOnTime) {
  auto req = request(origin->file_url());
  req.commit = c3;
  req.deadline = at("2026-11-23T09:50:00Z");
  req.grace = std::chrono::minutes(15);
  const auto got = fetch(req);
  EXPECT_FALSE(got.after_deadline);
  EXPECT_EQ(got.note.find("after the deadline"), std::string::npos) << got.note;
}

TEST_F(FetchSubmission, CommitExactlyAtDeadlineIsOnTime) {
  auto req = request(origin->file_url());
  req.deadline = at("2026-11-23T10:00:00Z");
  const auto got = fetch(req);
  EXPECT_EQ(got.commit, c3);
  EXPECT_FALSE(got.after_deadline);
}

TEST_F(FetchSubmission, DeadlineBeforeEveryCommitGradesHeadLate) {
  auto req = request(origin->file_url());
  req.deadline = at("2026-11-01T00:00:00Z");
  const auto got = fetch(req);
  EXPECT_EQ(got.commit, c3);
  EXPECT_TRUE(got.after_deadline);
  EXPECT_NE(got.note.find("after the deadline"), std::string::npos) << got.note;
}

TEST_F(FetchSubmission, PinnedCommitAfterDeadlineIsMarkedLate) {
  auto req = request(origin->file_url());
  req.commit = c3;
  req.deadline = at("2026-11-22T00:00:00Z");
  const auto got = fetch(req);
  EXPECT_EQ(got.commit, c3);
  EXPECT_TRUE(got.after_deadline);
}

TEST_F(FetchSubmission, DeadlineFollowsFirstParentsOnly) {
  // A side-branch commit made before the deadline but merged after it is not the branch's state.
  const std::string side =
      origin->commit_with_parents({{"matmul.cu", "side"}}, epoch("2026-11-21T12:00:00Z"), {c1});
  const std::string merge = origin->commit_with_parents({{"matmul.cu", "merged"}},
                                                        epoch("2026-11-24T10:00:00Z"), {c3, side});
  origin->set_branch("main", merge);
  auto req = request(origin->file_url());
  req.deadline = at("2026-11-21T13:00:00Z");
  const auto got = fetch(req);
  EXPECT_EQ(got.commit, c2);
  EXPECT_NE(got.note.find("2 newer commits ignored"), std::string::npos) << got.note;
}

TEST_F(FetchSubmission, RefetchPicksUpNewCommitAndForcePush) {
  const auto req = request(origin->file_url());
  const auto first = fetch(req);
  ASSERT_EQ(first.commit, c3);
  const std::string c4 = origin->commit({{"matmul.cu", "v4"}}, epoch("2026-11-24T10:00:00Z"));
  const auto second = fetch(req);
  EXPECT_EQ(second.commit, c4);
  EXPECT_EQ(read_file(second.directory / "matmul.cu"), "v4");
  // Force-push: main rewritten to a commit that does not descend from c4.
  const std::string rewritten = origin->commit_with_parents({{"matmul.cu", "rewritten"}},
                                                            epoch("2026-11-25T10:00:00Z"), {c1});
  origin->set_branch("main", rewritten);
  const auto third = fetch(req);
  EXPECT_EQ(third.commit, rewritten);
  EXPECT_EQ(read_file(third.directory / "matmul.cu"), "rewritten");
}

TEST_F(FetchSubmission, RefetchDropsDeletedBranchesAndFollowsMovedTags) {
  origin->set_branch("draft", c1);
  origin->tag("final", c1);
  auto req = request(origin->file_url());
  req.commit = "refs/heads/draft";
  ASSERT_EQ(fetch(req).commit, c1);
  origin->delete_branch("draft");
  origin->tag("final", c2);
  const auto deleted = fetch_submission(req);
  EXPECT_FALSE(deleted.ok()) << "a branch deleted on the remote was still graded";
  req.commit = "refs/tags/final";
  EXPECT_EQ(fetch(req).commit, c2);
}

TEST_F(FetchSubmission, BrokenCacheEntryIsRebuilt) {
  const auto req = request(origin->file_url());
  const auto first = fetch(req);
  const auto git_dir = first.directory.parent_path().parent_path() / "repo.git";
  ASSERT_TRUE(std::filesystem::exists(git_dir / "HEAD")) << git_dir;
  std::filesystem::remove(git_dir / "HEAD"); // as if a first clone was interrupted
  EXPECT_EQ(fetch(req).commit, c3);
}

TEST_F(FetchSubmission, SymlinksCheckOutAsPlainFiles) {
  origin->add_symlink("secret.cu", "/etc/hostname");
  const std::string c4 = origin->commit({{"matmul.cu", "v4"}}, epoch("2026-11-24T10:00:00Z"));
  const auto got = fetch(request(origin->file_url()));
  ASSERT_EQ(got.commit, c4);
  EXPECT_FALSE(std::filesystem::is_symlink(got.directory / "secret.cu"));
  EXPECT_EQ(read_file(got.directory / "secret.cu"), "/etc/hostname");
}

TEST_F(FetchSubmission, RegradingSameCommitStartsFromCleanDirectory) {
  const auto req = request(origin->file_url());
  const auto first = fetch(req);
  std::ofstream(first.directory / "leftover.o") << "old build output";
  std::ofstream(first.directory / "matmul.cu") << "edited in the cache";
  const auto second = fetch(req);
  EXPECT_EQ(second.directory, first.directory);
  EXPECT_FALSE(std::filesystem::exists(second.directory / "leftover.o"));
  EXPECT_EQ(read_file(second.directory / "matmul.cu"), "v3");
}

TEST_F(FetchSubmission, UnknownRefErrorNamesRef) {
  auto req = request(origin->file_url());
  req.commit = "refs/heads/no-such-branch";
  const auto got = fetch_submission(req);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("\"refs/heads/no-such-branch\""), std::string::npos) << got.error();
  EXPECT_NE(got.error().find(origin->file_url()), std::string::npos) << got.error();
}

TEST_F(FetchSubmission, UncommittedChangesAreNotGradedButNoted) {
  origin->write_file("matmul.cu", "unsaved edit");
  const auto got = fetch(request(origin->workdir().string()));
  EXPECT_EQ(read_file(got.directory / "matmul.cu"), "v3");
  EXPECT_NE(got.note.find("1 uncommitted change"), std::string::npos) << got.note;
}

TEST_F(FetchSubmission, DetachedHeadIsGradedWithoutBranch) {
  origin->detach_head(c2);
  const auto got = fetch(request(origin->workdir().string()));
  EXPECT_EQ(got.commit, c2);
  EXPECT_FALSE(got.branch.has_value());
}

TEST_F(FetchSubmission, ReportsProgress) {
  auto req = request(origin->file_url());
  std::vector<std::string> lines;
  req.progress = [&](std::string_view line) { lines.emplace_back(line); };
  (void)fetch(req);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front(), "fetching " + origin->file_url());
}

TEST(FetchSubmissionErrors, EmptyRepositoryFails) {
  temp_dir dir;
  const test_repo empty(dir.path() / "empty");
  fetch_request req;
  req.source = empty.workdir().string();
  req.cache_dir = dir.path() / "cache";
  req.fetcher = CUGRADE_FETCHER;
  const auto got = fetch_submission(req);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("empty"), std::string::npos) << got.error();
  EXPECT_NE(got.error().find(req.source), std::string::npos) << got.error();
}

TEST(FetchSubmissionErrors, PlainDirectoryIsGradedAsIs) {
  temp_dir dir;
  std::ofstream(dir.path() / "matmul.cu") << "plain";
  fetch_request req;
  req.source = dir.path().string();
  req.deadline = at("2026-11-22T00:00:00Z");
  const auto got = fetch_submission(req);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_FALSE(got->is_git);
  EXPECT_FALSE(got->commit.has_value());
  EXPECT_FALSE(got->after_deadline);
  EXPECT_EQ(read_file(got->directory / "matmul.cu"), "plain");
}

TEST(FetchSubmissionErrors, MissingPathFailsNamingIt) {
  temp_dir dir;
  fetch_request req;
  req.source = (dir.path() / "no-such-submission").string();
  const auto got = fetch_submission(req);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find(req.source), std::string::npos) << got.error();
  EXPECT_NE(got.error().find("not found"), std::string::npos) << got.error();
}

TEST(FetchSubmissionErrors, RegularFileIsNeitherDirectoryNorRepository) {
  temp_dir dir;
  std::ofstream(dir.path() / "matmul.cu") << "x";
  fetch_request req;
  req.source = (dir.path() / "matmul.cu").string();
  const auto got = fetch_submission(req);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("neither a directory nor a git repository"), std::string::npos)
      << got.error();
}

TEST(FetchSubmissionErrors, FileUrlToMissingPathFailsAsNotFound) {
  temp_dir dir;
  fetch_request req;
  req.source = "file://" + (dir.path() / "gone").string();
  req.cache_dir = dir.path() / "cache";
  req.fetcher = CUGRADE_FETCHER;
  const auto got = fetch_submission(req);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("not found"), std::string::npos) << got.error();
}

TEST(FetchSubmissionErrors, FileUrlToNonRepositoryFailsWithLibgit2Reason) {
  temp_dir dir;
  std::filesystem::create_directories(dir.path() / "plain");
  fetch_request req;
  req.source = "file://" + (dir.path() / "plain").string();
  req.cache_dir = dir.path() / "cache";
  req.fetcher = CUGRADE_FETCHER;
  const auto got = fetch_submission(req);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("could not connect to"), std::string::npos) << got.error();
  EXPECT_NE(got.error().find("repository"), std::string::npos) << got.error();
}

} // namespace
} // namespace cugrade::fetch
