#pragma once
/// \file
/// The cache's bare mirror of a submission repository: created on first use, brought up to date
/// (force-pushed branches, moved tags and deleted branches included) on every grading.

#include "grader/fetch/detail/libgit2.h"
#include "grader/fetch/fetch.h"
#include "harness/core/result.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace cugrade::fetch::detail {

struct mirror {
  repository_ptr repo;
  /// The remote's default branch ("main"); nullopt when the remote's HEAD is detached or unborn.
  std::optional<std::string> default_branch;
};

/// Opens (or creates) the bare repository at `git_dir` and fetches every branch and tag of `url`
/// into it, mirroring the remote's HEAD. `source` is the user's spelling, for messages.
/// Downloading more than `max_bytes` stops the fetch: failure_kind::submission.
[[nodiscard]] cugrade::result<mirror> update_mirror(const std::filesystem::path& git_dir,
                                                    const std::string& url,
                                                    const std::string& source,
                                                    const progress_callback& progress,
                                                    std::uint64_t max_bytes);

} // namespace cugrade::fetch::detail
