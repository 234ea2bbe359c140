#pragma once
/// \file
/// Fetching a student's submission: a plain directory, a local git repository, or a remote one
/// (file://, https://, ssh://, git@host:path), cloned into a cache with libgit2 (never the git
/// program), with the graded commit chosen by --commit, by a deadline, or as the branch's head.
/// docs/git.md states the rules to students and TAs.

#include "harness/core/result.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::fetch {

/// Receives short progress lines during long clones ("receiving objects 45% (90/200)").
using progress_callback = std::function<void(std::string_view)>;

/// Bounds on fetching a git source (a spec's `limits`; docs/git.md, "Limits"). A repository over
/// one is the student's verdict (`build_error` with the reason); a fetch over its time is the
/// network's (not gradable), bounded so that one repository never stops a class.
struct fetch_limits {
  /// What a clone or fetch may download.
  std::uint64_t repository_bytes = std::uint64_t{256} << 20;
  /// The graded commit's files together (each file too).
  std::uint64_t files_bytes = std::uint64_t{64} << 20;
  /// Files and folders of the graded commit.
  std::size_t max_entries = 10000;
  /// Folders below the repository's root.
  int max_depth = 16;
  /// The whole fetch, checkout included.
  double seconds = 300;
};

/// What to fetch and which commit to grade.
struct fetch_request {
  /// A directory, a local repository path, or a URL.
  std::string source;
  /// `--commit REF`: a full sha, a prefix of one that is unique among the repository's commits,
  /// or a ref name spelled out from `refs/` (`refs/heads/main`, `refs/tags/v1`). Wins over
  /// `deadline`.
  std::optional<std::string> commit;
  /// `--deadline`: grade the newest first-parent commit committed at or before it (and `grace`).
  std::optional<std::chrono::system_clock::time_point> deadline;
  /// Lateness the deadline forgives: a commit up to `deadline + grace` is on time.
  std::chrono::seconds grace{0};
  /// Grade the branch's newest commit whatever the deadline, which then only marks it late (the
  /// spec's `latest_with_penalty` mode).
  bool newest = false;
  /// Clones live in `<cache_dir>/<sanitised-name>-<short hash of source>/`; required for git
  /// sources.
  std::filesystem::path cache_dir;
  /// Optional; called from the fetching thread.
  progress_callback progress;
  fetch_limits limits;
  /// The `cugrade-fetch` program, which fetches a git source in a child process of its own
  /// (time-limited and killed as a whole: a stalled server or a hostile pack never holds the
  /// grader). Required for git sources.
  std::filesystem::path fetcher;
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
  /// The graded commit was committed after the deadline and its grace: no commit on the branch
  /// was on time, `newest` was asked for, or --commit pinned a later one.
  bool after_deadline = false;
  /// With a deadline and no pin: the branch's newest commit (full sha), graded or not, so the
  /// spec's `best_of` mode can grade it too.
  std::optional<std::string> newest_commit;
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
