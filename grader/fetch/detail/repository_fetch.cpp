#include "grader/fetch/detail/repository_fetch.h"

#include "grader/fetch/detail/checkout.h"
#include "grader/fetch/detail/libgit2.h"
#include "grader/fetch/detail/mirror.h"
#include "grader/fetch/detail/select.h"

#include <optional>
#include <string_view>
#include <system_error>

namespace cugrade::fetch::detail {
namespace fs = std::filesystem;

namespace {

void say(const fetch_request& request, const std::string& line) {
  if (request.progress)
    request.progress(line);
}

fetched_submission describe(const fetch_request& request, selection& chosen, fs::path directory) {
  fetched_submission submission;
  submission.directory = std::move(directory);
  submission.is_git = true;
  submission.source = request.source;
  submission.commit = oid_hex(*git_commit_id(chosen.commit.get()));
  submission.commit_time = commit_time(chosen.commit.get());
  submission.branch = chosen.branch;
  submission.after_deadline = chosen.after_deadline;
  submission.newest_commit = chosen.newest_commit;
  submission.notes.push_back(std::move(chosen.note));
  return submission;
}

// A repository over a limit leaves nothing behind in the cache.
template <class T> result<T> emptied_when_over(result<T> r, const fs::path& entry) {
  if (!r && r.why().kind == failure_kind::submission)
    empty_cache_entry(entry);
  return r;
}

// The path of a repository on this machine, for a local path or a file:// URL.
std::optional<fs::path> local_path(const source_info& info) {
  if (info.kind == source_kind::local_repository)
    return info.path;
  constexpr std::string_view file_scheme = "file://";
  if (info.url.rfind(file_scheme, 0) == 0)
    return fs::path(info.url.substr(file_scheme.size()));
  return std::nullopt;
}

// Why a repository on this machine cannot be fetched, when its own HEAD is the reason: a HEAD
// edited by hand to name no valid branch is the student's doing, never the machine's.
std::optional<failure> broken_head(const source_info& info, const std::string& source) {
  const auto path = local_path(info);
  git_repository* raw = nullptr;
  if (!path || git_repository_open(&raw, path->c_str()) != 0)
    return std::nullopt;
  const repository_ptr repo(raw);
  git_reference* head = nullptr;
  git_reference* resolved = nullptr;
  if (git_reference_lookup(&head, repo.get(), "HEAD") == 0) {
    const reference_ptr owned(head);
    if (git_reference_resolve(&resolved, owned.get()) == 0) {
      git_reference_free(resolved);
      return std::nullopt;
    }
  }
  return fail_submission(source + ": the repository's HEAD names no commit (" + last_error() +
                         "); point it at a branch, e.g. git symbolic-ref HEAD refs/heads/main");
}

} // namespace

void empty_cache_entry(const fs::path& entry) {
  std::error_code ec;
  fs::remove_all(entry / "repo.git", ec);
  fs::remove_all(entry / "worktrees", ec);
}

result<fetched_submission> fetch_repository(const fetch_request& request, const source_info& info,
                                            const fs::path& entry) {
  const libgit2_session session;
  say(request, "fetching " + request.source);
  auto cached = emptied_when_over(update_mirror(entry / "repo.git", info.url, request.source,
                                                request.progress, request.limits.repository_bytes),
                                  entry);
  if (!cached) {
    if (cached.why().kind == failure_kind::infrastructure)
      if (auto broken = broken_head(info, request.source))
        return *broken;
    return cached.why();
  }
  auto chosen = select_commit(cached->repo.get(), request, cached->default_branch);
  if (!chosen)
    return chosen.why();
  say(request, "checking out " + short_sha(*git_commit_id(chosen->commit.get())));
  auto files = emptied_when_over(check_out(cached->repo.get(), chosen->commit.get(),
                                           entry / "worktrees", request.source, request.limits),
                                 entry);
  if (!files)
    return files.why();
  fetched_submission submission = describe(request, *chosen, std::move(files->directory));
  submission.notes.insert(submission.notes.end(), files->notes.begin(), files->notes.end());
  if (info.kind == source_kind::local_repository)
    if (auto uncommitted = uncommitted_changes_note(info.path))
      submission.notes.push_back(*uncommitted);
  return submission;
}

} // namespace cugrade::fetch::detail
