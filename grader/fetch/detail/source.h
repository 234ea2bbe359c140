#pragma once
/// \file
/// What kind of thing a submission source is, where libgit2 should fetch it from, and which cache
/// entry holds its clone.

#include "harness/core/result.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cugrade::fetch::detail {

enum class source_kind {
  directory,        ///< an existing directory that is not a repository: graded as is
  local_repository, ///< an existing repository on this machine (working directory or bare)
  remote,           ///< a URL or scp-like address (file://, https://, ssh://, git@host:path)
};

struct source_info {
  source_kind kind = source_kind::directory;
  /// What libgit2 fetches from: the absolute path of a local repository, or the URL.
  std::string url;
  /// The absolute local path (directory and local_repository only).
  std::filesystem::path path;
  /// `<sanitised-name>-<12 hex digits of sha256(url)>`, the cache entry's folder name.
  std::string cache_name;
};

/// Decides the kind of `source`; errors name the source and the fix (not found, not a directory).
/// Needs an initialised libgit2.
[[nodiscard]] cugrade::result<source_info> classify_source(const std::string& source);

/// True for "scheme://..." and scp-like "user@host:path" / "host:path" addresses.
[[nodiscard]] bool looks_like_url(std::string_view source);

/// The cache entry name for a URL or absolute path: its last component without ".git", reduced to
/// [A-Za-z0-9._-], then "-" and 12 hex digits of its SHA-256 so equal names never collide.
[[nodiscard]] std::string cache_entry_name(std::string_view url);

/// "N uncommitted changes ... not graded" for a local working directory with changes not yet
/// committed (untracked files included), nullopt when it is clean or bare.
[[nodiscard]] std::optional<std::string>
uncommitted_changes_note(const std::filesystem::path& repo);

} // namespace cugrade::fetch::detail
