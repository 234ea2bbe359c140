#pragma once
/// \file
/// Writing a commit's files into a fresh directory of the cache, so nothing from an earlier
/// grading (build outputs, another commit's files) is ever graded with it. cugrade writes the tree
/// itself rather than through libgit2's checkout: every file is a plain file (a symbolic link is
/// written as the text of its target, as git does with core.symlinks off), a submodule is left out
/// with a note, a name that could escape the folder is refused, and the files' sizes, number and
/// depth are bounded before anything is written.

#include "grader/fetch/fetch.h"
#include "harness/core/result.h"

#include <git2.h>

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::fetch::detail {

/// A commit's files on disk.
struct checked_out {
  std::filesystem::path directory;
  /// What was left out or changed, for the report ("1 submodule left out ...").
  std::vector<std::string> notes;
};

/// Writes `commit`'s tree into `<worktrees>/<full sha>`, emptied first. A tree over `limits` is
/// failure_kind::submission (nothing is written); a disk that cannot be written is infrastructure.
[[nodiscard]] cugrade::result<checked_out> check_out(git_repository* repo, const git_commit* commit,
                                                     const std::filesystem::path& worktrees,
                                                     const std::string& source,
                                                     const fetch_limits& limits);

} // namespace cugrade::fetch::detail
