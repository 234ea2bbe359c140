#pragma once
/// \file
/// Statistics of timing samples (docs/timing.md): the summary a performance entry reports, the
/// speedup of one launcher over another with a bootstrap confidence interval, and the geometric
/// mean the leaderboard ranks by. Host-only and deterministic: a seeded bootstrap gives the same
/// interval for the same samples.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cugrade::perf {

/// What a performance entry says about one set of samples (milliseconds).
struct sample_summary {
  std::size_t count = 0;
  double median_ms = 0;
  double mean_ms = 0;
  double rel_stddev = 0; ///< sample standard deviation over the mean
  double min_ms = 0;
  double max_ms = 0;
};

/// The median (mean of the middle two for an even count); 0 for no samples.
[[nodiscard]] double median(std::vector<double> samples);

[[nodiscard]] sample_summary summarize(std::span<const double> samples_ms);

/// A ratio and its confidence interval.
struct ratio_interval {
  double estimate = 0;
  double low = 0;
  double high = 0;
};

/// median(reference) / median(student), with a percentile bootstrap interval: each resample
/// draws both sample sets again with replacement and takes the ratio of their medians.
/// `confidence` is e.g. 0.95. Both spans must be non-empty.
[[nodiscard]] ratio_interval speedup_interval(std::span<const double> reference_ms,
                                              std::span<const double> student_ms,
                                              std::uint64_t seed, int resamples = 2000,
                                              double confidence = 0.95);

/// exp(mean(log x)); 0 when empty or when any value is not positive.
[[nodiscard]] double geometric_mean(std::span<const double> values);

} // namespace cugrade::perf
