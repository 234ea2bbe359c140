// Pins are hashes: --commit (and a roster's commit column) take a full hash or a prefix unique
// among the repository's commits, and a name only when spelled from refs/. A student who pushes a
// branch or tag named like a TA's abbreviated pin must not choose what is graded.
#include "grader/fetch/fetch.h"
#include "tests/fetch/git_fixture.h"

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <memory>

namespace cugrade::fetch {
namespace {

using testing::epoch;
using testing::read_file;
using testing::temp_dir;
using testing::test_repo;

class PinnedCommit : public ::testing::Test {
protected:
  void SetUp() override {
    origin = std::make_unique<test_repo>(dir.path() / "origin");
    good = origin->commit({{"matmul.cu", "honest work"}}, epoch("2026-11-20T10:00:00Z"));
    later = origin->commit({{"matmul.cu", "after the deadline"}}, epoch("2026-11-28T10:00:00Z"));
  }

  [[nodiscard]] fetch_request pinned(const std::string& ref) const {
    fetch_request req;
    req.source = origin->file_url();
    req.cache_dir = dir.path() / "cache";
    req.fetcher = CUGRADE_FETCHER;
    req.commit = ref;
    return req;
  }

  temp_dir dir;
  std::unique_ptr<test_repo> origin;
  std::string good, later;
};

TEST_F(PinnedCommit, AbbreviatedPinIsNotHijackedByATagOrBranchOfThatName) {
  const std::string pin = good.substr(0, 7);
  // The attack: a back-dated commit the student wants graded, under the TA's pin as names.
  const std::string forged =
      origin->commit({{"matmul.cu", "a classmate's solution"}}, epoch("2026-11-19T10:00:00Z"));
  origin->tag(pin, forged);
  origin->set_branch(pin, forged);
  const auto got = fetch_submission(pinned(pin));
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got->commit, good);
  EXPECT_EQ(read_file(got->directory / "matmul.cu"), "honest work");
  EXPECT_NE(got->note.find("(a commit hash)"), std::string::npos) << got->note;
}

TEST_F(PinnedCommit, FullAndUppercaseHashesPin) {
  for (const std::string& ref : {good, good.substr(0, 12)}) {
    const auto got = fetch_submission(pinned(ref));
    ASSERT_TRUE(got.ok()) << got.error();
    EXPECT_EQ(got->commit, good) << ref;
  }
  std::string upper = good.substr(0, 10);
  for (auto& c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const auto got = fetch_submission(pinned(upper));
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got->commit, good);
}

TEST_F(PinnedCommit, BareNameIsRefusedWithTheRefsSpelling) {
  origin->set_branch("draft", good);
  const auto got = fetch_submission(pinned("draft"));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::usage);
  EXPECT_NE(got.error().find("refs/heads/draft"), std::string::npos) << got.error();
  EXPECT_NE(got.error().find("neither a commit hash"), std::string::npos) << got.error();
}

TEST_F(PinnedCommit, RefNameIsUsedOnlyWhenSpelledOutAndTheNoteSaysSo) {
  origin->set_branch("draft", good);
  const auto got = fetch_submission(pinned("refs/heads/draft"));
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got->commit, good);
  EXPECT_EQ(got->branch, "draft");
  EXPECT_NE(got->note.find("a ref name"), std::string::npos) << got->note;
}

TEST_F(PinnedCommit, UnknownHashIsAUsageErrorNamingIt) {
  const auto got = fetch_submission(pinned("0000000"));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::usage);
  EXPECT_NE(got.error().find("\"0000000\""), std::string::npos) << got.error();
}

TEST_F(PinnedCommit, HashOfABlobIsNoCommit) {
  // A prefix only a blob or tree has is not a commit, whatever libgit2 would resolve it to.
  const auto got = fetch_submission(pinned("ffffffffffffffffffffffffffffffffffffffff"));
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("no commit"), std::string::npos) << got.error();
}

TEST_F(PinnedCommit, AmbiguousPrefixIsRefusedListingTheCandidates) {
  // Commits until two share their first four hex digits (about 300 expected).
  std::map<std::string, std::string> by_prefix{{good.substr(0, 4), good},
                                               {later.substr(0, 4), later}};
  std::string first, second;
  for (int i = 0; i < 5000 && first.empty(); ++i) {
    const std::string sha = origin->commit({{"matmul.cu", "try " + std::to_string(i)}},
                                           epoch("2026-11-21T10:00:00Z") + i);
    const auto [it, inserted] = by_prefix.emplace(sha.substr(0, 4), sha);
    if (!inserted) {
      first = it->second;
      second = sha;
    }
  }
  ASSERT_FALSE(first.empty()) << "no two commits shared a 4-digit prefix";
  const auto got = fetch_submission(pinned(first.substr(0, 4)));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::usage);
  EXPECT_NE(got.error().find("give more digits"), std::string::npos) << got.error();
  EXPECT_NE(got.error().find(first.substr(0, 12)), std::string::npos) << got.error();
  EXPECT_NE(got.error().find(second.substr(0, 12)), std::string::npos) << got.error();
  const auto longer = fetch_submission(pinned(first.substr(0, 12)));
  ASSERT_TRUE(longer.ok()) << longer.error();
  EXPECT_EQ(longer->commit, first);
}

} // namespace
} // namespace cugrade::fetch
