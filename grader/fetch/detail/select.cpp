#include "grader/fetch/detail/select.h"

#include "harness/core/iso8601.h"

namespace cugrade::fetch::detail {
namespace {

using clock_point = std::chrono::system_clock::time_point;

std::string plural(std::size_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string describe(const git_commit* commit) {
  return short_sha(*git_commit_id(commit)) + " (committed " +
         format_iso8601_utc(commit_time(commit)) + ")";
}

std::string on_branch(const std::optional<std::string>& branch) {
  return branch ? "on " + *branch : "at the remote's HEAD";
}

/// The name of the branch `ref` spells, when it spells one.
std::optional<std::string> branch_named(git_repository* repo, const std::string& ref) {
  git_reference* raw = nullptr;
  if (git_reference_dwim(&raw, repo, ref.c_str()) != 0)
    return std::nullopt;
  const reference_ptr reference(raw);
  if (!git_reference_is_branch(reference.get()))
    return std::nullopt;
  return git_reference_shorthand(reference.get());
}

result<commit_ptr> peel_to_commit(git_object* object, const std::string& what,
                                  const std::string& source) {
  git_object* raw = nullptr;
  if (git_object_peel(&raw, object, GIT_OBJECT_COMMIT) != 0)
    return fail_usage(source + ": " + what + " names a " +
                      git_object_type2string(git_object_type(object)) +
                      ", not a commit; give a commit sha, a branch or a tag");
  return commit_ptr(reinterpret_cast<git_commit*>(raw));
}

result<selection> pinned(git_repository* repo, const fetch_request& request) {
  const std::string& ref = *request.commit;
  const std::string what = "--commit \"" + ref + "\"";
  git_object* raw = nullptr;
  const int rc = git_revparse_single(&raw, repo, ref.c_str());
  if (rc == GIT_EAMBIGUOUS)
    return fail_usage(request.source + ": " + what + " is ambiguous (" + last_error() +
                      "); give more digits of the sha (7 or more)");
  if (rc != 0)
    return fail_usage(request.source + ": " + what +
                      " names no commit, branch or tag in the repository; check the sha or name "
                      "(branches and tags are those on the remote)");
  const object_ptr object(raw);
  auto commit = peel_to_commit(object.get(), what, request.source);
  if (!commit)
    return commit.why();
  selection chosen{std::move(*commit), branch_named(repo, ref), false, {}};
  chosen.after_deadline = request.deadline && commit_time(chosen.commit.get()) > *request.deadline;
  chosen.note = "graded the commit pinned by " + what + ": " + describe(chosen.commit.get());
  if (chosen.after_deadline)
    chosen.note += ", after the deadline " + format_iso8601_utc(*request.deadline);
  return chosen;
}

result<commit_ptr> head_commit(git_repository* repo, const std::string& source) {
  git_object* raw = nullptr;
  if (git_revparse_single(&raw, repo, "HEAD") != 0)
    return fail_submission(source + ": the repository's HEAD names no commit (" + last_error() +
                           "); push a default branch or give --commit <branch>");
  const object_ptr object(raw);
  return peel_to_commit(object.get(), "HEAD", source);
}

/// Walks first parents from `tip`, newest first; the first commit at or before the deadline wins.
/// First parents only, so commits merged in from side branches never count as the branch's state.
result<selection> by_deadline(git_repository* repo, commit_ptr tip, clock_point deadline,
                              const std::optional<std::string>& branch) {
  git_revwalk* raw = nullptr;
  if (git_revwalk_new(&raw, repo) != 0)
    return fail("cannot walk the history (" + last_error() + ")");
  const revwalk_ptr walk(raw);
  git_revwalk_simplify_first_parent(walk.get());
  if (git_revwalk_push(walk.get(), git_commit_id(tip.get())) != 0)
    return fail("cannot walk the history (" + last_error() + ")");
  const std::string when = format_iso8601_utc(deadline);
  std::size_t newer = 0;
  for (git_oid oid; git_revwalk_next(&oid, walk.get()) == 0; ++newer) {
    git_commit* raw_commit = nullptr;
    if (git_commit_lookup(&raw_commit, repo, &oid) != 0)
      return fail("cannot read commit " + oid_hex(oid) + " (" + last_error() + ")");
    commit_ptr commit(raw_commit);
    if (commit_time(commit.get()) > deadline)
      continue;
    std::string note = "graded the last commit " + on_branch(branch) +
                       " at or before the deadline " + when + ": " + describe(commit.get());
    if (newer > 0)
      note += " (" + plural(newer, "newer commit") + " ignored, the newest committed " +
              format_iso8601_utc(commit_time(tip.get())) + ")";
    return selection{std::move(commit), branch, false, std::move(note)};
  }
  std::string note = "no commit " + on_branch(branch) + " is at or before the deadline " + when +
                     "; graded the newest, " + describe(tip.get()) + ", after the deadline";
  return selection{std::move(tip), branch, true, std::move(note)};
}

} // namespace

clock_point commit_time(const git_commit* commit) {
  return clock_point(std::chrono::seconds(git_commit_time(commit)));
}

result<selection> select_commit(git_repository* repo, const fetch_request& request,
                                const std::optional<std::string>& default_branch) {
  if (request.commit)
    return pinned(repo, request);
  auto tip = head_commit(repo, request.source);
  if (!tip)
    return tip.why();
  if (request.deadline)
    return by_deadline(repo, std::move(*tip), *request.deadline, default_branch);
  std::string note =
      "graded the newest commit " + on_branch(default_branch) + ": " + describe(tip->get());
  return selection{std::move(*tip), default_branch, false, std::move(note)};
}

} // namespace cugrade::fetch::detail
