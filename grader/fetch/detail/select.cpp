#include "grader/fetch/detail/select.h"

#include "harness/core/iso8601.h"
#include "harness/core/words.h"

#include <algorithm>
#include <vector>

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

result<commit_ptr> peel_to_commit(git_object* object, const std::string& what,
                                  const std::string& source) {
  git_object* raw = nullptr;
  if (git_object_peel(&raw, object, GIT_OBJECT_COMMIT) != 0)
    return fail_usage(source + ": " + what + " names a " +
                      git_object_type2string(git_object_type(object)) +
                      ", not a commit; give a commit sha, a branch or a tag");
  return commit_ptr(reinterpret_cast<git_commit*>(raw));
}

// The last moment that is on time: the deadline and its grace.
clock_point cutoff(const fetch_request& request) {
  return *request.deadline + request.grace;
}

// "2026-12-01T23:59:00Z" or "2026-12-01T23:59:00Z (and its 15 min grace)".
std::string deadline_text(const fetch_request& request) {
  std::string text = format_iso8601_utc(*request.deadline);
  if (request.grace.count() > 0)
    text += " (and its " + std::to_string(request.grace.count() / 60) + " min grace)";
  return text;
}

bool is_hex(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

// Every commit of the repository whose hash starts with `prefix` (lowercase hex).
result<std::vector<git_oid>> commits_with_prefix(git_repository* repo, const std::string& prefix) {
  git_odb* raw = nullptr;
  if (git_repository_odb(&raw, repo) != 0)
    return fail("cannot read the repository's objects (" + last_error() + ")");
  const git_ptr<git_odb, git_odb_free> odb(raw);
  struct search {
    git_odb* odb;
    const std::string& prefix;
    std::vector<git_oid> found;
  } state{odb.get(), prefix, {}};
  const auto visit = [](const git_oid* oid, void* payload) -> int {
    auto& s = *static_cast<search*>(payload);
    if (oid_hex(*oid).compare(0, s.prefix.size(), s.prefix) != 0)
      return 0;
    std::size_t size = 0;
    git_object_t type = GIT_OBJECT_INVALID;
    if (git_odb_read_header(&size, &type, s.odb, oid) == 0 && type == GIT_OBJECT_COMMIT &&
        std::find_if(s.found.begin(), s.found.end(),
                     [&](const git_oid& o) { return git_oid_equal(&o, oid); }) == s.found.end())
      s.found.push_back(*oid);
    return 0;
  };
  if (git_odb_foreach(odb.get(), visit, &state) != 0)
    return fail("cannot list the repository's objects (" + last_error() + ")");
  return std::move(state.found);
}

result<commit_ptr> lookup_commit(git_repository* repo, const git_oid& oid) {
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo, &oid) != 0)
    return fail("cannot read commit " + oid_hex(oid) + " (" + last_error() + ")");
  return commit_ptr(raw);
}

// One line per candidate of an ambiguous prefix: its longer hash, time and subject.
std::string candidates(git_repository* repo, const std::vector<git_oid>& found) {
  std::string text;
  for (const auto& oid : found) {
    auto commit = lookup_commit(repo, oid);
    const char* summary = commit ? git_commit_summary(commit->get()) : nullptr;
    text += "\n  " + oid_hex(oid).substr(0, 12) +
            (commit ? " committed " + format_iso8601_utc(commit_time(commit->get())) : "") +
            (summary != nullptr ? std::string(" \"") + summary + "\"" : "");
  }
  return text;
}

// A pin by hash: a full hash, or a prefix that only one commit of the repository has. Never a
// name: a student can push a branch or tag named like a TA's abbreviated pin.
result<commit_ptr> by_hash(git_repository* repo, const std::string& ref, const std::string& what,
                           const std::string& source) {
  auto found = commits_with_prefix(repo, ascii_lowercase(ref));
  if (!found)
    return found.why();
  if (found->empty())
    return fail_usage(source + ": " + what +
                      " is no commit of the repository; check the hash (git log --format=%H "
                      "lists them)");
  if (found->size() > 1)
    return fail_usage(source + ": " + what + " is the start of " + std::to_string(found->size()) +
                      " commits' hashes; give more digits:" + candidates(repo, *found));
  return lookup_commit(repo, found->front());
}

// A pin by name, spelled out from refs/ so that it is never mistaken for a hash.
result<commit_ptr> by_ref(git_repository* repo, const std::string& ref, const std::string& what,
                          const std::string& source) {
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo, ref.c_str()) != 0)
    return fail_usage(source + ": " + what +
                      " names no branch or tag of the repository; check the name (branches are "
                      "refs/heads/NAME, tags refs/tags/NAME, as on the remote)");
  const reference_ptr reference(raw);
  git_object* peeled = nullptr;
  if (git_reference_peel(&peeled, reference.get(), GIT_OBJECT_ANY) != 0)
    return fail_submission(source + ": " + what + " cannot be resolved (" + last_error() +
                           "); repair the branch or tag, or pin a commit hash");
  const object_ptr object(peeled);
  return peel_to_commit(object.get(), what, source);
}

result<selection> pinned(git_repository* repo, const fetch_request& request) {
  const std::string& ref = *request.commit;
  const std::string what = "--commit \"" + ref + "\"";
  const bool named = ref.rfind("refs/", 0) == 0;
  if (!named && !(ref.size() >= 4 && ref.size() <= GIT_OID_HEXSZ && is_hex(ref)))
    return fail_usage(request.source + ": " + what +
                      " is neither a commit hash (4 to 40 hex digits) nor a ref name spelled "
                      "from refs/; give the commit's hash, or refs/heads/" +
                      ref + " for a branch, refs/tags/" + ref + " for a tag");
  auto commit =
      named ? by_ref(repo, ref, what, request.source) : by_hash(repo, ref, what, request.source);
  if (!commit)
    return commit.why();
  std::optional<std::string> branch;
  if (ref.rfind("refs/heads/", 0) == 0)
    branch = ref.substr(11);
  selection chosen{std::move(*commit), branch, false, {}, std::nullopt};
  chosen.after_deadline = request.deadline && commit_time(chosen.commit.get()) > cutoff(request);
  chosen.note = "graded the commit pinned by " + what +
                (named ? " (a ref name, resolved when graded)" : " (a commit hash)") + ": " +
                describe(chosen.commit.get());
  if (chosen.after_deadline)
    chosen.note += ", after the deadline " + deadline_text(request);
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

/// Walks first parents from `tip`, newest first; the first commit at or before the deadline and
/// its grace wins. First parents only, so commits merged in from side branches never count as the
/// branch's state.
result<selection> by_deadline(git_repository* repo, commit_ptr tip, const fetch_request& request,
                              const std::optional<std::string>& branch) {
  git_revwalk* raw = nullptr;
  if (git_revwalk_new(&raw, repo) != 0)
    return fail("cannot walk the history (" + last_error() + ")");
  const revwalk_ptr walk(raw);
  git_revwalk_simplify_first_parent(walk.get());
  if (git_revwalk_push(walk.get(), git_commit_id(tip.get())) != 0)
    return fail("cannot walk the history (" + last_error() + ")");
  const std::string when = deadline_text(request);
  const std::string newest = oid_hex(*git_commit_id(tip.get()));
  std::size_t newer = 0;
  for (git_oid oid; git_revwalk_next(&oid, walk.get()) == 0; ++newer) {
    git_commit* raw_commit = nullptr;
    if (git_commit_lookup(&raw_commit, repo, &oid) != 0)
      return fail("cannot read commit " + oid_hex(oid) + " (" + last_error() + ")");
    commit_ptr commit(raw_commit);
    if (commit_time(commit.get()) > cutoff(request))
      continue;
    std::string note = "graded the last commit " + on_branch(branch) +
                       " at or before the deadline " + when + ": " + describe(commit.get());
    if (newer > 0)
      note += " (" + plural(newer, "newer commit") + " ignored, the newest committed " +
              format_iso8601_utc(commit_time(tip.get())) + ")";
    return selection{std::move(commit), branch, false, std::move(note), newest};
  }
  std::string note = "no commit " + on_branch(branch) + " is at or before the deadline " + when +
                     "; graded the newest, " + describe(tip.get()) + ", after the deadline";
  return selection{std::move(tip), branch, true, std::move(note), newest};
}

/// The branch's newest commit, marked late when it is after the deadline and its grace.
selection newest_with_deadline(commit_ptr tip, const fetch_request& request,
                               const std::optional<std::string>& branch) {
  const bool late = commit_time(tip.get()) > cutoff(request);
  std::string note = "graded the newest commit " + on_branch(branch) + ": " + describe(tip.get()) +
                     (late ? ", after" : ", on time for") + " the deadline " +
                     deadline_text(request) +
                     " (the spec grades the newest commit and applies its "
                     "late policy)";
  const std::string newest = oid_hex(*git_commit_id(tip.get()));
  return selection{std::move(tip), branch, late, std::move(note), newest};
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
  if (request.deadline && request.newest)
    return newest_with_deadline(std::move(*tip), request, default_branch);
  if (request.deadline)
    return by_deadline(repo, std::move(*tip), request, default_branch);
  std::string note =
      "graded the newest commit " + on_branch(default_branch) + ": " + describe(tip->get());
  return selection{std::move(*tip), default_branch, false, std::move(note), std::nullopt};
}

} // namespace cugrade::fetch::detail
