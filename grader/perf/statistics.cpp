#include "grader/perf/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace cugrade::perf {

namespace {

// The median of `x`, reordering it (nth_element is linear, which the bootstrap needs).
double median_in_place(std::vector<double>& x) {
  if (x.empty()) {
    return 0;
  }
  const std::size_t mid = x.size() / 2;
  std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(mid), x.end());
  const double upper = x[mid];
  if (x.size() % 2 == 1) {
    return upper;
  }
  const double lower = *std::max_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

double resampled_median(std::span<const double> x, std::mt19937_64& rng,
                        std::vector<double>& scratch) {
  std::uniform_int_distribution<std::size_t> pick(0, x.size() - 1);
  scratch.resize(x.size());
  for (double& v : scratch) {
    v = x[pick(rng)];
  }
  return median_in_place(scratch);
}

// The q-quantile of sorted values, interpolating between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

} // namespace

double median(std::vector<double> samples) {
  return median_in_place(samples);
}

sample_summary summarize(std::span<const double> samples_ms) {
  sample_summary s;
  s.count = samples_ms.size();
  if (samples_ms.empty()) {
    return s;
  }
  const double n = static_cast<double>(s.count);
  s.mean_ms = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0) / n;
  s.median_ms = median({samples_ms.begin(), samples_ms.end()});
  const auto [lo, hi] = std::minmax_element(samples_ms.begin(), samples_ms.end());
  s.min_ms = *lo;
  s.max_ms = *hi;
  if (s.count > 1 && s.mean_ms > 0) {
    double sq = 0;
    for (const double x : samples_ms) {
      sq += (x - s.mean_ms) * (x - s.mean_ms);
    }
    s.rel_stddev = std::sqrt(sq / (n - 1)) / s.mean_ms;
  }
  return s;
}

ratio_interval speedup_interval(std::span<const double> reference_ms,
                                std::span<const double> student_ms, std::uint64_t seed,
                                int resamples, double confidence) {
  ratio_interval r;
  if (reference_ms.empty() || student_ms.empty()) {
    return r;
  }
  r.estimate = median({reference_ms.begin(), reference_ms.end()}) /
               median({student_ms.begin(), student_ms.end()});
  std::mt19937_64 rng(seed);
  std::vector<double> ratios;
  std::vector<double> scratch;
  ratios.reserve(static_cast<std::size_t>(resamples));
  for (int i = 0; i < resamples; ++i) {
    const double ref = resampled_median(reference_ms, rng, scratch);
    const double stu = resampled_median(student_ms, rng, scratch);
    ratios.push_back(ref / stu);
  }
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1 - confidence) / 2;
  r.low = quantile(ratios, tail);
  r.high = quantile(ratios, 1 - tail);
  return r;
}

double geometric_mean(std::span<const double> values) {
  if (values.empty()) {
    return 0;
  }
  double logs = 0;
  for (const double v : values) {
    if (!(v > 0)) {
      return 0;
    }
    logs += std::log(v);
  }
  return std::exp(logs / static_cast<double>(values.size()));
}

} // namespace cugrade::perf
