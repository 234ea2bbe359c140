#pragma once
/// \file
/// The timing protocol's decisions, apart from any device so they can be tested anywhere: the
/// spread of samples, which samples were taken at a throttled clock, and when to stop sampling
/// (docs/timing.md).

#include "harness/protocol/protocol.h"

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace cugrade::runner {

/// Relative standard deviation (sample stddev / mean) of `samples`; 0 for fewer than two.
[[nodiscard]] double relative_stddev(std::span<const double> samples);

/// Indices of the samples taken at no less than `fraction` of the highest clock in `clocks_mhz`.
/// A clock of 0 (unknown) never drops a sample.
[[nodiscard]] std::vector<std::size_t> unthrottled(std::span<const double> clocks_mhz,
                                                   double fraction);

/// Why sampling stops now ("max_samples", "max_seconds", "rsd" or "rse"), or "" to go on.
/// `kept_ms` are the samples that count (not throttled); `samples_taken` counts every timed
/// call; `wall_seconds` is the time spent sampling so far.
[[nodiscard]] std::string stop_reason(const protocol::timing_request& t,
                                      std::span<const double> kept_ms, int samples_taken,
                                      double wall_seconds);

} // namespace cugrade::runner
