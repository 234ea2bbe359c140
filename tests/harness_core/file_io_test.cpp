// Whole-file reads and atomic writes (harness/core/file_io.h).
#include "grader/process/temp_dir.h"
#include "harness/core/file_io.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <sys/stat.h>

namespace cugrade {
namespace {

namespace fs = std::filesystem;

class FileIo : public ::testing::Test {
protected:
  process::temp_dir m_tmp{"cugrade-file-io"};
  fs::path m_dir = m_tmp.path();
};

TEST_F(FileIo, ReadsBytesAsWritten) {
  const std::string bytes("line\r\n\0binary\xff", 14);
  ASSERT_TRUE(write_file_atomically(m_dir / "f", bytes).ok());
  const auto back = read_file(m_dir / "f");
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(*back, bytes);
}

TEST_F(FileIo, ReadsAFileLargerThanOneBuffer) {
  const std::string big(200000, 'x');
  ASSERT_TRUE(write_file_atomically(m_dir / "big", big).ok());
  const auto back = read_file(m_dir / "big");
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->size(), big.size());
}

TEST_F(FileIo, ReadingAMissingFileOrAFolderSaysWhichAndWhy) {
  const auto missing = read_file(m_dir / "absent.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "cannot read " + (m_dir / "absent.json").string() +
                                 ": No such file or directory");
  const auto folder = read_file(m_dir);
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().find("Is a directory"), std::string::npos) << folder.error();
}

TEST_F(FileIo, WriteReplacesContentAndCreatesFolders) {
  const fs::path file = m_dir / "a" / "b" / "report.json";
  ASSERT_TRUE(write_file_atomically(file, "first").ok());
  ASSERT_TRUE(write_file_atomically(file, "second, longer content").ok());
  EXPECT_EQ(*read_file(file), "second, longer content");
  ASSERT_TRUE(write_file_atomically(file, "").ok());
  EXPECT_EQ(*read_file(file), "");
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  // No temporary is left beside it.
  EXPECT_EQ(std::distance(fs::directory_iterator(file.parent_path()), fs::directory_iterator{}),
            1);
}

TEST_F(FileIo, WriteFailureNamesThePathAndLeavesNoTemporary) {
  ASSERT_TRUE(write_file_atomically(m_dir / "plain", "x").ok());
  const auto r = write_file_atomically(m_dir / "plain" / "child.json", "x");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find((m_dir / "plain").string()), std::string::npos) << r.error();
  EXPECT_EQ(std::distance(fs::directory_iterator(m_dir), fs::directory_iterator{}), 1);
}

} // namespace
} // namespace cugrade
