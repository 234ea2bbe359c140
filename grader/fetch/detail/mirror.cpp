#include "grader/fetch/detail/mirror.h"

#include "grader/fetch/detail/remote_callbacks.h"
#include "grader/fetch/submission_copy.h"

#include <array>
#include <system_error>

namespace cugrade::fetch::detail {
namespace fs = std::filesystem;

namespace {

// Branches and tags land under the same names as on the remote ("+": a force-push or a moved tag
// replaces the old tip). The remote's HEAD is kept too, for remotes whose HEAD is detached.
constexpr const char* remote_head_ref = "refs/cugrade/remote-head";
constexpr std::array<const char*, 3> mirror_refspecs = {
    "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*", "+HEAD:refs/cugrade/remote-head"};

/// Symbolic links check out as small files holding the link's target, so a submission cannot
/// point the build (and its error log, which lands in the report) at a file outside itself.
result<repository_ptr> without_symlinks(repository_ptr repo, const fs::path& git_dir) {
  git_config* raw = nullptr;
  if (git_repository_config(&raw, repo.get()) != 0)
    return fail(git_dir.string() + ": cannot read the cache repository's config (" + last_error() +
                "); remove it and grade again");
  const git_ptr<git_config, git_config_free> config(raw);
  if (git_config_set_bool(config.get(), "core.symlinks", 0) != 0)
    return fail(git_dir.string() + ": cannot write the cache repository's config (" + last_error() +
                "); give a writable cache directory");
  return repo;
}

/// A cache folder that is not a readable bare repository (an interrupted first clone) is rebuilt.
result<repository_ptr> open_or_create(const fs::path& git_dir) {
  git_repository* raw = nullptr;
  if (fs::exists(git_dir) && git_repository_open_bare(&raw, git_dir.c_str()) == 0)
    return without_symlinks(repository_ptr(raw), git_dir);
  std::error_code ec;
  fs::remove_all(git_dir, ec);
  if (git_repository_init(&raw, git_dir.c_str(), /*is_bare=*/1) != 0)
    return fail(git_dir.string() + ": cannot create the cache repository (" + last_error() +
                "); give a writable cache directory");
  return without_symlinks(repository_ptr(raw), git_dir);
}

std::string network_failure(const std::string& source, const char* step,
                            const remote_context& context) {
  const std::string reason =
      context.credential_error.empty() ? last_error() : context.credential_error;
  return source + ": could not " + step + " the repository (" + reason +
         "); check the URL, the network and the grader's credentials (docs/git.md)";
}

/// True when the remote advertises at least one ref: an empty repository advertises none.
bool has_refs(git_remote* remote) {
  const git_remote_head** heads = nullptr;
  std::size_t count = 0;
  return git_remote_ls(&heads, &count, remote) == 0 && count > 0;
}

std::optional<std::string> default_branch(git_remote* remote) {
  buffer name;
  if (git_remote_default_branch(name.get(), remote) != 0)
    return std::nullopt;
  constexpr std::string_view prefix = "refs/heads/";
  const std::string full = name.str();
  if (full.compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  return full.substr(prefix.size());
}

/// Points the mirror's HEAD where the remote's points, so "HEAD" means the remote's HEAD.
result<void> mirror_head(git_repository* repo, const std::optional<std::string>& branch,
                         const std::string& source) {
  if (branch) {
    if (git_repository_set_head(repo, ("refs/heads/" + *branch).c_str()) == 0)
      return {};
  } else {
    git_oid head;
    if (git_reference_name_to_id(&head, repo, remote_head_ref) == 0 &&
        git_repository_set_head_detached(repo, &head) == 0)
      return {};
  }
  return fail_submission(source + ": the repository's HEAD names no commit (" + last_error() +
                         "); push a default branch or give --commit <branch>");
}

/// connect, download, update refs, prune, disconnect: git_remote_fetch without the default-branch
/// blind spot (the default branch can only be asked while connected).
failure too_large(const std::string& source, const remote_context& context) {
  return fail_submission(source + ": the repository is larger than " +
                         byte_size_text(context.max_bytes) +
                         " (the limit, \"limits\": {\"repository_bytes\"} in the assignment's "
                         "spec; the download was stopped after " +
                         byte_size_text(context.received_bytes) +
                         "); remove large files from its history, or ask for the limit to be "
                         "raised");
}

result<std::optional<std::string>> fetch_all(git_remote* remote, const std::string& source,
                                             const progress_callback& progress,
                                             std::uint64_t max_bytes) {
  remote_context context;
  context.progress = &progress;
  context.max_bytes = max_bytes;
  const git_remote_callbacks callbacks = make_remote_callbacks(context);
  git_proxy_options proxy = GIT_PROXY_OPTIONS_INIT;
  proxy.type = GIT_PROXY_AUTO;
  if (git_remote_connect(remote, GIT_DIRECTION_FETCH, &callbacks, &proxy, nullptr) != 0)
    return fail(network_failure(source, "connect to", context));
  if (!has_refs(remote))
    return fail_submission(source +
                           ": the repository is empty (it has no commits); commit your work and "
                           "push it, e.g. git push origin main");
  const auto branch = default_branch(remote);
  git_fetch_options options = GIT_FETCH_OPTIONS_INIT;
  options.callbacks = callbacks;
  options.proxy_opts = proxy;
  options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
  const git_strarray refspecs = {const_cast<char**>(mirror_refspecs.data()),
                                 mirror_refspecs.size()};
  if (git_remote_download(remote, &refspecs, &options) != 0)
    return context.over_limit ? result<std::optional<std::string>>(too_large(source, context))
                              : fail(network_failure(source, "download", context));
  if (git_remote_update_tips(remote, &callbacks, 0, GIT_REMOTE_DOWNLOAD_TAGS_NONE,
                             "cugrade: fetch") != 0 ||
      git_remote_prune(remote, &callbacks) != 0)
    return fail(network_failure(source, "update the cache from", context));
  git_remote_disconnect(remote);
  return branch;
}

} // namespace

result<mirror> update_mirror(const fs::path& git_dir, const std::string& url,
                             const std::string& source, const progress_callback& progress,
                             std::uint64_t max_bytes) {
  auto repo = open_or_create(git_dir);
  if (!repo)
    return fail(repo.error());
  git_remote* raw_remote = nullptr;
  if (git_remote_create_anonymous(&raw_remote, repo->get(), url.c_str()) != 0)
    return fail_usage(source + ": is not a URL libgit2 can fetch (" + last_error() +
                      "); use https://, ssh://, git@host:path, file:// or a local path");
  const remote_ptr remote(raw_remote);
  auto branch = fetch_all(remote.get(), source, progress, max_bytes);
  if (!branch)
    return branch.why();
  if (auto head = mirror_head(repo->get(), *branch, source); !head)
    return head.why();
  return mirror{std::move(*repo), std::move(*branch)};
}

} // namespace cugrade::fetch::detail
