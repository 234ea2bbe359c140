#include "harness/runner/timing_rules.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cugrade::runner {

double relative_stddev(std::span<const double> samples) {
  if (samples.size() < 2) {
    return 0;
  }
  const double n = static_cast<double>(samples.size());
  const double mean = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  double sq = 0;
  for (const double x : samples) {
    sq += (x - mean) * (x - mean);
  }
  return mean > 0 ? std::sqrt(sq / (n - 1)) / mean : 0;
}

std::vector<std::size_t> unthrottled(std::span<const double> clocks_mhz, double fraction) {
  const double max_clock =
      clocks_mhz.empty() ? 0.0 : *std::max_element(clocks_mhz.begin(), clocks_mhz.end());
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < clocks_mhz.size(); ++i) {
    if (clocks_mhz[i] <= 0 || clocks_mhz[i] >= fraction * max_clock) {
      kept.push_back(i);
    }
  }
  return kept;
}

std::string stop_reason(const protocol::timing_request& t, std::span<const double> kept_ms,
                        int samples_taken, double wall_seconds) {
  if (samples_taken >= t.max_samples) {
    return "max_samples";
  }
  if (wall_seconds >= t.max_seconds) {
    return "max_seconds";
  }
  const double total_ms = std::accumulate(kept_ms.begin(), kept_ms.end(), 0.0);
  if (static_cast<int>(kept_ms.size()) < t.min_samples || total_ms < 1000.0 * t.min_seconds) {
    return "";
  }
  const double rsd = relative_stddev(kept_ms);
  if (rsd <= t.target_rsd) {
    return "rsd";
  }
  const double rse = rsd / std::sqrt(static_cast<double>(kept_ms.size()));
  return rse <= t.target_rse ? "rse" : "";
}

} // namespace cugrade::runner
