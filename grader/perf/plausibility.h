#pragma once
/// \file
/// Whether a measured time can be believed (docs/timing.md, "Plausibility"): a call cannot move
/// its minimal bytes faster than the memory's peak bandwidth (the physical floor), and the
/// device-synchronised host clock must agree with the CUDA events up to launch overhead. A
/// suspicious time earns no speedup and no performance points.

#include "grader/perf/statistics.h"

#include <span>
#include <string>

namespace cugrade::perf {

/// Launch overhead the host clock may add to the events' time: max(50 us, 20% of the event).
inline constexpr double host_gap_floor_ms = 0.05;
inline constexpr double host_gap_fraction = 0.2;

/// The least time `bytes` of memory traffic take at `peak_gbps`, in milliseconds.
[[nodiscard]] double floor_ms(double bytes, double peak_gbps);

/// The median over samples of host - event, in milliseconds (0 for no samples).
[[nodiscard]] double median_host_gap_ms(std::span<const double> event_ms,
                                        std::span<const double> host_ms);

struct plausibility {
  bool suspicious = false;
  std::string note; ///< why, for the report
};

/// Judges one case's kept samples. `bytes` is the case's minimal traffic; `peak_gbps` the
/// device's peak bandwidth (0: unknown, no floor check).
[[nodiscard]] plausibility judge_samples(const sample_summary& s, std::span<const double> event_ms,
                                         std::span<const double> host_ms, double bytes,
                                         double peak_gbps);

} // namespace cugrade::perf
