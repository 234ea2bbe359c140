#pragma once
/// \file
/// Writing a commit's files into a fresh directory of the cache, so nothing from an earlier
/// grading (build outputs, another commit's files) is ever graded with it.

#include "harness/core/result.h"

#include <git2.h>

#include <filesystem>
#include <string>

namespace cugrade::fetch::detail {

/// Checks `commit` out into `<worktrees>/<full sha>`, emptied first; returns that directory.
[[nodiscard]] cugrade::result<std::filesystem::path>
check_out(git_repository* repo, const git_commit* commit, const std::filesystem::path& worktrees,
          const std::string& source);

} // namespace cugrade::fetch::detail
