#include "grader/fetch/detail/source.h"

#include "grader/fetch/detail/libgit2.h"
#include "harness/core/sha256.h"

#include <system_error>

namespace cugrade::fetch::detail {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view file_scheme = "file://";

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

void strip_trailing_slashes(std::string_view& text) {
  while (!text.empty() && text.back() == '/')
    text.remove_suffix(1);
}

/// The last path component of a URL or path, without a ".git" suffix or folder.
std::string_view last_component(std::string_view url) {
  strip_trailing_slashes(url);
  if (ends_with(url, "/.git"))
    url.remove_suffix(5);
  strip_trailing_slashes(url);
  const auto cut = url.find_last_of("/:");
  if (cut != std::string_view::npos)
    url.remove_prefix(cut + 1);
  if (ends_with(url, ".git"))
    url.remove_suffix(4);
  return url;
}

/// A local path that exists: a repository (checked by libgit2 without searching parent folders, so
/// a plain folder inside some other repository stays a plain folder) or a directory.
result<source_info> classify_local(const std::string& source, const fs::path& path) {
  std::error_code ec;
  const fs::path absolute = fs::weakly_canonical(fs::absolute(path), ec);
  source_info info;
  info.path = ec ? fs::absolute(path) : absolute;
  const int rc =
      git_repository_open_ext(nullptr, info.path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr);
  if (rc == 0) {
    info.kind = source_kind::local_repository;
    info.url = info.path.string();
    info.cache_name = cache_entry_name(info.url);
    return info;
  }
  if (rc != GIT_ENOTFOUND)
    return fail_usage(source + ": looks like a git repository but libgit2 cannot open it (" +
                      last_error() + "); repair it or give a clean clone");
  if (!fs::is_directory(info.path, ec))
    return fail_usage(source +
                      ": is neither a directory nor a git repository; give the submission's "
                      "folder, a repository path or a URL");
  info.kind = source_kind::directory;
  return info;
}

result<source_info> classify_remote(const std::string& source) {
  std::string_view view = source;
  if (view.substr(0, file_scheme.size()) == file_scheme) {
    const fs::path local(std::string(view.substr(file_scheme.size())));
    std::error_code ec;
    if (!fs::exists(local, ec))
      return fail_usage(source + ": not found (no such path " + local.string() +
                        "); check the URL or the roster entry");
  }
  source_info info;
  info.kind = source_kind::remote;
  info.url = source;
  info.cache_name = cache_entry_name(source);
  return info;
}

} // namespace

bool looks_like_url(std::string_view source) {
  if (source.find("://") != std::string_view::npos)
    return true;
  // scp-like "git@host:path": a colon before any slash, after at least two characters (so a
  // Windows drive letter "C:" is not mistaken for a host).
  const auto colon = source.find(':');
  const auto slash = source.find('/');
  return colon != std::string_view::npos && colon >= 2 &&
         (slash == std::string_view::npos || colon < slash);
}

std::string cache_entry_name(std::string_view url) {
  std::string name;
  for (const char c : last_component(url)) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '-';
    name += plain ? c : '_';
  }
  if (name.size() > 48)
    name.resize(48);
  if (name.empty() || name.front() == '.')
    name.insert(0, "repo");
  return name + "-" + sha256_hex(url).substr(0, 12);
}

result<source_info> classify_source(const std::string& source) {
  if (source.empty())
    return fail_usage(
        "the submission source is empty; give a directory, a repository path or a URL");
  std::error_code ec;
  const fs::path path(source);
  if (fs::exists(path, ec))
    return classify_local(source, path);
  if (looks_like_url(source))
    return classify_remote(source);
  return fail_usage(source +
                    ": not found (no such file or directory, and not a URL); check the path " +
                    "or give a URL such as https://host/owner/repo.git");
}

std::optional<std::string> uncommitted_changes_note(const fs::path& repo_path) {
  git_repository* raw = nullptr;
  if (git_repository_open(&raw, repo_path.c_str()) != 0)
    return std::nullopt;
  const repository_ptr repo(raw);
  if (git_repository_is_bare(repo.get()))
    return std::nullopt;
  git_status_options options = GIT_STATUS_OPTIONS_INIT;
  options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
  git_status_list* raw_list = nullptr;
  if (git_status_list_new(&raw_list, repo.get(), &options) != 0)
    return std::nullopt;
  const status_list_ptr list(raw_list);
  const std::size_t changes = git_status_list_entrycount(list.get());
  if (changes == 0)
    return std::nullopt;
  return std::to_string(changes) + (changes == 1 ? " uncommitted change" : " uncommitted changes") +
         " in " + repo_path.string() +
         " (not graded: only committed work is graded; commit them to have them graded)";
}

} // namespace cugrade::fetch::detail
