#pragma once
/// \file
/// Which commit is graded: the one --commit names, else the newest first-parent commit of the
/// branch at or before the deadline, else the branch's head. docs/git.md states these rules.

#include "grader/fetch/detail/libgit2.h"
#include "grader/fetch/fetch.h"
#include "harness/core/result.h"

#include <optional>
#include <string>

namespace cugrade::fetch::detail {

struct selection {
  commit_ptr commit;
  std::optional<std::string> branch;
  bool after_deadline = false;
  std::string note;
  /// The branch's newest commit, when a deadline chose among its commits.
  std::optional<std::string> newest_commit;
};

/// Chooses the commit of `repo` (a mirror whose HEAD is the remote's HEAD, on `default_branch`)
/// as `request` asks. Errors name `request.source` and the fix.
[[nodiscard]] cugrade::result<selection>
select_commit(git_repository* repo, const fetch_request& request,
              const std::optional<std::string>& default_branch);

/// The committer time of `commit`.
[[nodiscard]] std::chrono::system_clock::time_point commit_time(const git_commit* commit);

} // namespace cugrade::fetch::detail
