#pragma once
/// \file
/// The callbacks cugrade hands libgit2 for network operations: credentials (ssh-agent, a key file,
/// an https token from the environment; see docs/git.md) and throttled progress lines.

#include "grader/fetch/fetch.h"

#include <git2.h>

#include <cstdint>
#include <string>

namespace cugrade::fetch::detail {

/// State shared by the callbacks of one fetch; must outlive the remote's connection.
struct remote_context {
  const progress_callback* progress = nullptr;
  int last_objects_percent = -1;
  int last_deltas_percent = -1;
  /// Credential kinds already offered, so a rejected one is not offered again in a loop.
  unsigned tried = 0;
  /// Why the credential callback gave up, for the error message (empty when it did not).
  std::string credential_error;
  /// The download stops once more than this many bytes have arrived (0: no limit).
  std::uint64_t max_bytes = 0;
  /// Bytes received so far.
  std::uint64_t received_bytes = 0;
  /// The download was stopped at `max_bytes`.
  bool over_limit = false;
};

/// Callbacks with `context` as their payload.
[[nodiscard]] git_remote_callbacks make_remote_callbacks(remote_context& context);

} // namespace cugrade::fetch::detail
