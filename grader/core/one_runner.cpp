#include "grader/core/one_runner.h"

namespace cugrade::grader {

namespace {

bool whole(const protocol::runner_log& log, std::size_t n, int runs) {
  return log.started && log.tampering.empty() && log.missing_launcher.empty() && n > 0 &&
         runs > 0;
}

// The log's identity with launcher j's records renumbered from case 0; nothing when one of them
// did not complete or faulted.
std::optional<protocol::runner_log> renumbered(const protocol::runner_log& log, std::size_t j,
                                               std::size_t n) {
  protocol::runner_log share;
  share.backend = log.backend;
  share.device = log.device;
  share.driver = log.driver;
  share.runtime = log.runtime;
  share.started = true;
  for (const auto& r : log.runs) {
    if (r.case_index < j * n || r.case_index >= (j + 1) * n) {
      continue;
    }
    if (!r.completed || r.error_kind) {
      return std::nullopt;
    }
    auto mine = r;
    mine.case_index -= j * n;
    share.runs.push_back(std::move(mine));
  }
  return share;
}

} // namespace

std::optional<protocol::runner_log> launcher_share(const protocol::runner_log& log, std::size_t j,
                                                   std::size_t n, int runs) {
  if (!whole(log, n, runs)) {
    return std::nullopt;
  }
  auto share = renumbered(log, j, n);
  if (!share) {
    return std::nullopt;
  }
  std::vector<int> seen(n, 0); // completed runs of each case
  for (const auto& r : share->runs) {
    ++seen[r.case_index];
  }
  for (const int count : seen) {
    if (count != runs) {
      return std::nullopt;
    }
  }
  share->finished = true;
  return share;
}

std::optional<protocol::runner_log> stopped_launcher_share(const protocol::runner_log& log,
                                                           std::size_t j, std::size_t n, int runs,
                                                           double latest_begin) {
  if (!whole(log, n, runs) || log.finished || !log.open_case || *log.open_case < j * n ||
      *log.open_case >= (j + 1) * n) {
    return std::nullopt;
  }
  const auto began = log.began_seconds.find(j * n);
  if (began == log.began_seconds.end() || began->second > latest_begin) {
    return std::nullopt; // the launchers before it may have used some of its time
  }
  auto share = renumbered(log, j, n);
  if (!share) {
    return std::nullopt;
  }
  share->open_case = *log.open_case - j * n;
  share->open_run = log.open_run;
  share->fault_kind = log.fault_kind; // emulation: where the limit found the kernel's threads
  share->fault_message = log.fault_message;
  return share;
}

} // namespace cugrade::grader
