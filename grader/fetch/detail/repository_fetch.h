#pragma once
/// \file
/// Fetching a git source into its cache entry and checking the chosen commit out: the work of the
/// `cugrade-fetch` program, which runs it in a process of its own (child_fetch.h).

#include "grader/fetch/detail/source.h"
#include "grader/fetch/fetch.h"
#include "harness/core/result.h"

#include <filesystem>

namespace cugrade::fetch::detail {

/// Updates `<entry>/repo.git` from `info.url`, chooses the commit `request` asks for and writes
/// its files into `<entry>/worktrees/`. The caller holds the entry's lock. A repository over
/// `request.limits` is failure_kind::submission, and its cache entry is emptied.
[[nodiscard]] cugrade::result<fetched_submission>
fetch_repository(const fetch_request& request, const source_info& info,
                 const std::filesystem::path& entry);

/// Removes what a fetch left in `entry` (the mirror and the checkouts), keeping the lock file.
void empty_cache_entry(const std::filesystem::path& entry);

} // namespace cugrade::fetch::detail
