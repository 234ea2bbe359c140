#pragma once
/// \file
/// Fetching a student's submission: a plain directory, a local git repository, or a remote one
/// (file://, https://, ssh://, git@host:path), cloned into a cache with libgit2 (never the git
/// program), with the graded commit chosen by --commit, by a deadline, or as the branch's head.
/// docs/git.md states the rules to students and TAs.

#include "harness/core/result.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::fetch {

/// Receives short progress lines during long clones ("receiving objects 45% (90/200)").
using progress_callback = std::function<void(std::string_view)>;

/// What to fetch and which commit to grade.
struct fetch_request {
  /// A directory, a local repository path, or a URL.
  std::string source;
  /// `--commit REF`: a full or abbreviated sha, a branch or a tag. Wins over `deadline`.
  std::optional<std::string> commit;
  /// `--deadline`: grade the newest first-parent commit committed at or before it.
  std::optional<std::chrono::system_clock::time_point> deadline;
  /// Clones live in `<cache_dir>/<sanitised-name>-<short hash of source>/`; required for git
  /// sources.
  std::filesystem::path cache_dir;
  /// Optional; called from the fetching thread.
  progress_callback progress;
};

/// What was fetched: where the files are and which commit they are.
struct fetched_submission {
  /// The files to grade: the plain directory itself, or a fresh checkout of the graded commit.
  std::filesystem::path directory;
  bool is_git = false;
  /// The request's source, as given.
  std::string source;
  /// Full hex sha of the graded commit (git sources only).
  std::optional<std::string> commit;
  /// The graded commit's committer time.
  std::optional<std::chrono::system_clock::time_point> commit_time;
  /// The branch graded, when one was (not for a sha or tag given to --commit).
  std::optional<std::string> branch;
  /// The graded commit was committed after the deadline: no commit on the branch was at or before
  /// it, or --commit pinned a later one.
  bool after_deadline = false;
  /// Sentences for the report, e.g. "graded the last commit before the deadline: abc1234 (3
  /// newer commits ignored, ...)" and "2 uncommitted changes in ... (not graded ...)".
  std::vector<std::string> notes;
  /// `notes` joined with "; ".
  std::string note;
};

/// Fetches `request.source` and checks out the chosen commit. Errors name the source and the fix.
[[nodiscard]] cugrade::result<fetched_submission> fetch_submission(const fetch_request& request);

/// The deadline given as `--deadline`, in any form cugrade::parse_iso8601 accepts (the same as a
/// spec's "deadline"); the error quotes the text and lists the accepted forms.
[[nodiscard]] cugrade::result<std::chrono::system_clock::time_point>
parse_deadline(std::string_view text);

/// 0 when `graded` is at or before `deadline`; otherwise the started days late (1 s late is 1 day,
/// 24 h is 1, 25 h is 2).
[[nodiscard]] int late_days(std::chrono::system_clock::time_point graded,
                            std::chrono::system_clock::time_point deadline);

} // namespace cugrade::fetch
