// Taking a submission in: regular files only, no link followed, sizes bounded, and a missing
// source answered with the file the student probably meant.
#include "grader/fetch/submission_copy.h"
#include "tests/fetch/git_fixture.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/types.h>

#include <chrono>
#include <fstream>

namespace cugrade::fetch {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::temp_dir;

class SubmissionCopy : public ::testing::Test {
protected:
  void SetUp() override { fs::create_directories(submitted()); }
  [[nodiscard]] fs::path submitted() const { return dir.path() / "submitted"; }
  [[nodiscard]] fs::path copy_to() const { return dir.path() / "copy"; }
  void write(const std::string& name, const std::string& text) const {
    fs::create_directories((submitted() / name).parent_path());
    std::ofstream(submitted() / name, std::ios::binary) << text;
  }
  result<copied_submission> copy(const copy_limits& limits = {}) const {
    return copy_submission(submitted(), "matmul.cu", copy_to(), limits);
  }
  temp_dir dir;
};

TEST_F(SubmissionCopy, CopiesRegularFilesAndNotesLeftOutLinks) {
  write("matmul.cu", "kernel");
  write("include/util.h", "helper");
  write(".git/config", "not copied");
  fs::create_symlink("/etc/passwd", submitted() / "passwd.h");
  const auto got = copy();
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got->source, copy_to() / "matmul.cu");
  EXPECT_EQ(read_file(got->source), "kernel");
  EXPECT_EQ(read_file(copy_to() / "include/util.h"), "helper");
  EXPECT_FALSE(fs::exists(copy_to() / ".git"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(copy_to() / "passwd.h")));
  ASSERT_EQ(got->notes.size(), 1u);
  EXPECT_NE(got->notes[0].find("1 symbolic link was not copied"), std::string::npos);
  EXPECT_NE(got->notes[0].find("passwd.h"), std::string::npos);
  write("matmul.cu", "edited after the copy");
  EXPECT_EQ(read_file(got->source), "kernel"); // the grading reads its own copy
}

TEST_F(SubmissionCopy, SourceThatIsALinkIsRefusedEvenToASecret) {
  fs::create_symlink("/proc/self/environ", submitted() / "matmul.cu");
  const auto got = copy();
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::submission);
  EXPECT_EQ(got.error(), "matmul.cu is a symbolic link; submit the file itself (links are never "
                         "followed)");
  EXPECT_FALSE(fs::exists(copy_to() / "matmul.cu"));
}

TEST_F(SubmissionCopy, LinkToADirectoryIsNotWalked) {
  write("matmul.cu", "kernel");
  fs::create_directory_symlink("/etc", submitted() / "etc");
  const auto got = copy();
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_FALSE(fs::exists(copy_to() / "etc"));
}

TEST_F(SubmissionCopy, FifoSourceIsRefusedWithoutWaitingForAWriter) {
  ASSERT_EQ(::mkfifo((submitted() / "matmul.cu").c_str(), 0644), 0);
  const auto started = std::chrono::steady_clock::now();
  const auto got = copy();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::submission);
  EXPECT_NE(got.error().find("matmul.cu is a FIFO (named pipe), not a regular file"),
            std::string::npos)
      << got.error();
}

TEST_F(SubmissionCopy, FifoBesideTheSourceIsSkippedWithoutBlocking) {
  write("matmul.cu", "kernel");
  ASSERT_EQ(::mkfifo((submitted() / "pipe").c_str(), 0644), 0);
  const auto got = copy();
  ASSERT_TRUE(got.ok()) << got.error();
  ASSERT_EQ(got->notes.size(), 1u);
  EXPECT_NE(got->notes[0].find("pipe (a FIFO (named pipe))"), std::string::npos) << got->notes[0];
}

TEST_F(SubmissionCopy, OversizedSourceIsRefusedWithItsSizeAndTheLimit) {
  {
    std::ofstream big(submitted() / "matmul.cu", std::ios::binary);
    big.seekp((200 << 20) - 1);
    big.put('x'); // sparse: 200 MiB that cost no disk
  }
  const auto got = copy();
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::submission);
  EXPECT_EQ(got.error(), "matmul.cu is 200 MiB; the limit is 1 MiB (\"limits\": "
                         "{\"source_bytes\"} in the assignment's spec); submit only your source");
}

TEST_F(SubmissionCopy, SubmissionOverItsTotalNamesTheLargeFile) {
  write("matmul.cu", "kernel");
  write("data/frames.bin", std::string(3000, 'x'));
  copy_limits limits;
  limits.submission_bytes = 2048;
  const auto got = copy(limits);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::submission);
  EXPECT_NE(got.error().find("more than 2.0 KiB"), std::string::npos) << got.error();
  EXPECT_NE(got.error().find("data/frames.bin alone is 2.9 KiB"), std::string::npos) << got.error();
}

TEST_F(SubmissionCopy, TooManyFilesIsRefused) {
  write("matmul.cu", "kernel");
  for (int i = 0; i < 20; ++i)
    write("many/" + std::to_string(i) + ".txt", "x");
  copy_limits limits;
  limits.max_entries = 10;
  const auto got = copy(limits);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("more than 10 files and folders"), std::string::npos) << got.error();
}

TEST_F(SubmissionCopy, MissingSourceNamesTheNestedFile) {
  write("nest/matmul.cu", "kernel");
  const auto got = copy();
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.why().kind, failure_kind::submission);
  EXPECT_NE(got.error().find("found nest/matmul.cu: move it to the root of your repository"),
            std::string::npos)
      << got.error();
}

TEST_F(SubmissionCopy, MissingSourceNamesTheFileInAnotherCase) {
  write("MatMul.cu", "kernel");
  const auto got = copy();
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("found MatMul.cu: rename it to matmul.cu (names are case-sensitive)"),
            std::string::npos)
      << got.error();
}

TEST_F(SubmissionCopy, MissingSourceNamesALoneCudaFile) {
  write("src/hw3.cu", "kernel");
  write("README.md", "notes");
  const auto got = copy();
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("found src/hw3.cu: name it matmul.cu and put it at the root"),
            std::string::npos)
      << got.error();
}

TEST_F(SubmissionCopy, MissingSourceWithSeveralCandidatesSaysOnlyWhereItBelongs) {
  write("a.cu", "x");
  write("b.cu", "y");
  const auto got = copy();
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().find("; found"), std::string::npos) << got.error();
  EXPECT_NE(got.error().find("matmul.cu was not found at the root"), std::string::npos);
}

TEST(ByteSizeText, NamesSizesAsPeopleRead) {
  EXPECT_EQ(byte_size_text(512), "512 bytes");
  EXPECT_EQ(byte_size_text(1536), "1.5 KiB");
  EXPECT_EQ(byte_size_text(1 << 20), "1 MiB");
  EXPECT_EQ(byte_size_text(3 * (1 << 20) / 2), "1.5 MiB");
}

} // namespace
} // namespace cugrade::fetch
