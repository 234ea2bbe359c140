// Bounded fetches: a repository over its download or file limits is the student's verdict and
// leaves nothing in the cache; a server that stalls is stopped at the fetch's time limit; a
// submodule is left out with a note instead of making the repository ungradable.
#include "grader/fetch/fetch.h"
#include "tests/fetch/git_fixture.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <random>

namespace cugrade::fetch {
namespace {

namespace fs = std::filesystem;
using testing::epoch;
using testing::read_file;
using testing::temp_dir;
using testing::test_repo;

// Bytes that do not compress, so the pack is as large as the file.
std::string noise(std::size_t bytes, unsigned seed) {
  std::mt19937 random(seed);
  std::string text(bytes, '\0');
  for (auto& c : text)
    c = static_cast<char>(random());
  return text;
}

class BoundedFetch : public ::testing::Test {
protected:
  void SetUp() override { origin = std::make_unique<test_repo>(dir.path() / "origin"); }

  [[nodiscard]] fetch_request request() const {
    fetch_request req;
    req.source = origin->file_url();
    req.cache_dir = dir.path() / "cache";
    req.fetcher = CUGRADE_FETCHER;
    return req;
  }

  // The cache entry's folders a fetch may leave: the mirror and the checkouts.
  [[nodiscard]] bool cache_holds_a_clone() const {
    if (!fs::exists(dir.path() / "cache"))
      return false;
    for (const auto& entry : fs::directory_iterator(dir.path() / "cache"))
      if (fs::exists(entry.path() / "repo.git") || fs::exists(entry.path() / "worktrees"))
        return true;
    return false;
  }

  temp_dir dir;
  std::unique_ptr<test_repo> origin;
};

TEST_F(BoundedFetch, RepositoryOverTheDownloadLimitIsTheStudentsVerdictAndLeavesNothing) {
  origin->commit({{"matmul.cu", "ok"}, {"dataset.bin", noise(3 << 20, 1)}},
                 epoch("2026-11-20T10:00:00Z"));
  auto req = request();
  req.limits.repository_bytes = 1 << 20;
  const auto got = fetch_submission(req);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::submission) << got.error();
  EXPECT_NE(got.error().find("larger than 1 MiB"), std::string::npos) << got.error();
  EXPECT_NE(got.error().find("repository_bytes"), std::string::npos) << got.error();
  EXPECT_FALSE(cache_holds_a_clone());
}

TEST_F(BoundedFetch, FileOverTheFilesLimitIsNamedAndNothingIsCheckedOut) {
  origin->commit({{"matmul.cu", "ok"}, {"weights.bin", noise(600 << 10, 2)}},
                 epoch("2026-11-20T10:00:00Z"));
  auto req = request();
  req.limits.files_bytes = 512 << 10;
  const auto got = fetch_submission(req);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::submission) << got.error();
  EXPECT_NE(got.error().find("weights.bin alone is 600.0 KiB"), std::string::npos) << got.error();
  EXPECT_FALSE(cache_holds_a_clone());
}

TEST_F(BoundedFetch, SubmoduleIsLeftOutWithANote) {
  const std::string elsewhere =
      origin->commit({{"matmul.cu", "first"}}, epoch("2026-11-19T10:00:00Z"));
  origin->add_submodule("vendor/lib", elsewhere, "https://example.invalid/lib.git");
  const std::string sha = origin->commit({{"matmul.cu", "graded"}}, epoch("2026-11-20T10:00:00Z"));
  const auto got = fetch_submission(request());
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got->commit, sha);
  EXPECT_EQ(read_file(got->directory / "matmul.cu"), "graded");
  EXPECT_NE(got->note.find("1 submodule vendor/lib left out"), std::string::npos) << got->note;
}

TEST_F(BoundedFetch, StalledServerIsStoppedAtTheTimeLimit) {
  // A server that accepts the connection (the kernel completes it from the backlog) and never
  // answers: libgit2 1.5 has no timeout of its own.
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 8), 0);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  auto req = request();
  req.source = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/student.git";
  req.limits.seconds = 2;
  const auto started = std::chrono::steady_clock::now();
  const auto got = fetch_submission(req);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ::close(listener);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::infrastructure) << got.error();
  EXPECT_NE(got.error().find("fetch_seconds"), std::string::npos) << got.error();
  EXPECT_LT(took, 20.0);
}

} // namespace
} // namespace cugrade::fetch
