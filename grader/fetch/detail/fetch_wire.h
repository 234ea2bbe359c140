#pragma once
/// \file
/// What the grader and its `cugrade-fetch` child say to each other: the request as one JSON
/// argument, the outcome (a fetched submission, or a failure with its kind) as one JSON document
/// on the child's standard output.

#include "grader/fetch/detail/source.h"
#include "grader/fetch/fetch.h"
#include "harness/core/result.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace cugrade::fetch::detail {

/// One fetch as the child receives it.
struct wire_request {
  fetch_request request; ///< without `progress` and `fetcher`
  source_info info;
  std::filesystem::path entry; ///< the cache entry, locked by the grader
};

[[nodiscard]] std::string encode_request(const wire_request& w);
[[nodiscard]] cugrade::result<wire_request> decode_request(std::string_view text);

[[nodiscard]] std::string encode_outcome(const cugrade::result<fetched_submission>& outcome);
/// The child's outcome; a document that does not parse is an infrastructure failure.
[[nodiscard]] cugrade::result<fetched_submission> decode_outcome(std::string_view text);

} // namespace cugrade::fetch::detail
