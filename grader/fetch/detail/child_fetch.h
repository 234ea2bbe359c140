#pragma once
/// \file
/// The grader's side of a git fetch: `cugrade-fetch` runs it in a child process of its own, under
/// the fetch's time limit, killed with its whole process group when the limit passes. libgit2's
/// network code (libgit2 1.5 has no server timeout) and its pack parser then never hold, nor
/// take down, the grader, and one stalled server never stops a class.

#include "grader/fetch/detail/source.h"
#include "grader/fetch/fetch.h"
#include "harness/core/result.h"

#include <filesystem>

namespace cugrade::fetch::detail {

/// Runs `request.fetcher` on the source; the caller holds the lock of `entry`. Progress lines
/// reach `request.progress` as they come. Over `request.limits.seconds` the child is killed and
/// the cache entry emptied: failure_kind::infrastructure (a slow network, graded again later).
[[nodiscard]] cugrade::result<fetched_submission>
fetch_in_child(const fetch_request& request, const source_info& info,
               const std::filesystem::path& entry);

} // namespace cugrade::fetch::detail
