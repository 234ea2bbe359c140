#include "grader/perf/plausibility.h"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

namespace cugrade::perf {

double floor_ms(double bytes, double peak_gbps) {
  return peak_gbps > 0 ? bytes / (peak_gbps * 1e9) * 1e3 : 0;
}

double median_host_gap_ms(std::span<const double> event_ms, std::span<const double> host_ms) {
  std::vector<double> gaps;
  for (std::size_t i = 0; i < std::min(event_ms.size(), host_ms.size()); ++i) {
    gaps.push_back(host_ms[i] - event_ms[i]);
  }
  return median(std::move(gaps));
}

// One slow sample (the host thread descheduled) must not condemn a kernel, so the rule looks at
// the median gap: a launcher whose work escapes the events shows it on every call.
plausibility judge_samples(const sample_summary& s, std::span<const double> event_ms,
                           std::span<const double> host_ms, double bytes, double peak_gbps) {
  plausibility p;
  if (s.count == 0) {
    return {true, "no timed sample was kept"};
  }
  const double floor = floor_ms(bytes, peak_gbps);
  if (floor > 0 && s.median_ms < floor) {
    p.suspicious = true;
    p.note = fmt::format("median {:.4g} ms is below the physical floor of {:.4g} ms ({:.4g} MB "
                         "at the device's peak {:.0f} GB/s): the call cannot have done its work",
                         s.median_ms, floor, bytes / 1e6, peak_gbps);
  }
  const double gap = median_host_gap_ms(event_ms, host_ms);
  const double allowed = std::max(host_gap_floor_ms, host_gap_fraction * s.median_ms);
  if (gap > allowed) {
    p.suspicious = true;
    p.note += fmt::format("{}the synchronised host clock ran {:.4g} ms longer than the CUDA "
                          "events (median; at most {:.4g} ms of launch overhead expected): work "
                          "escaped the timed region",
                          p.note.empty() ? "" : "; ", gap, allowed);
  }
  return p;
}

} // namespace cugrade::perf
