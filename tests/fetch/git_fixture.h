#pragma once
/// \file
/// Test repositories built with libgit2 itself: commits with chosen committer times, tags,
/// branches and detached heads, inside a temporary directory removed after each test.

#include <git2.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace cugrade::fetch::testing {

/// A fresh directory under the system temp folder, removed with everything in it.
class temp_dir {
public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

private:
  std::filesystem::path m_path;
};

/// A non-bare repository on branch "main" whose commits the test writes one by one.
class test_repo {
public:
  explicit test_repo(const std::filesystem::path& workdir);
  ~test_repo();
  test_repo(const test_repo&) = delete;
  test_repo& operator=(const test_repo&) = delete;

  /// Writes `files` into the work tree, stages everything and commits on HEAD's branch with the
  /// given committer time (seconds since the epoch). Returns the commit's full sha.
  std::string commit(const std::map<std::string, std::string>& files, std::int64_t when,
                     const std::string& message = "work");
  /// A commit with explicit parents that moves no ref (for merges and side branches).
  std::string commit_with_parents(const std::map<std::string, std::string>& files,
                                  std::int64_t when, const std::vector<std::string>& parents);
  /// Creates or moves (force) `refs/heads/<name>` to `sha`.
  void set_branch(const std::string& name, const std::string& sha);
  /// Deletes `refs/heads/<name>`.
  void delete_branch(const std::string& name);
  /// Creates a symbolic link in the work tree and stages it for the next commit.
  void add_symlink(const std::string& name, const std::string& target);
  /// Stages a submodule (a gitlink entry naming commit `sha` of another repository) at `path`,
  /// with a .gitmodules file pointing at `url`, for the next commit.
  void add_submodule(const std::string& path, const std::string& sha, const std::string& url);
  /// An annotated tag (created or moved).
  void tag(const std::string& name, const std::string& sha);
  /// Detaches HEAD at `sha`.
  void detach_head(const std::string& sha);
  /// Writes a file into the work tree without staging it.
  void write_file(const std::string& name, const std::string& content) const;

  [[nodiscard]] const std::filesystem::path& workdir() const { return m_workdir; }
  [[nodiscard]] std::string file_url() const { return "file://" + m_workdir.string(); }

private:
  git_oid write_tree(const std::map<std::string, std::string>& files);
  std::filesystem::path m_workdir;
  git_repository* m_repo = nullptr;
};

/// The contents of a file, or "<missing>".
[[nodiscard]] std::string read_file(const std::filesystem::path& path);

/// Seconds since the epoch for "YYYY-MM-DDTHH:MM:SSZ" (tests only; aborts on bad input).
[[nodiscard]] std::int64_t epoch(const char* iso_utc);

} // namespace cugrade::fetch::testing
