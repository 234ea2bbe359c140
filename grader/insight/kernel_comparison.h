#pragma once
/// \file
/// Comparisons between a submission's kernels (docs/insight.md, "Comparing a submission's
/// kernels"): a kernel that takes at least 1.5 times as long as the fastest other kernel
/// profiled on the same backend and shape, and has a measured cause, has its costliest insight
/// lead with the comparison ("reduce_interleaved takes 2.1x the time of reduce_convergent on the
/// same input: " and the cause). On the GPU the time is Nsight Compute's duration of the
/// kernel; in emulation it is the modelled memory time (insight_rules.h), and the words say so.
/// No comparison is said without a cause, and no new insight is made.

#include <optional>
#include <string>
#include <vector>

#include "reports/report.h"

namespace cugrade::insight {

/// A profiled kernel's time, as comparisons read it.
struct kernel_time {
  std::string kernel;
  reports::backend_kind backend = reports::backend_kind::emu;
  std::string shape; ///< the profiled shape, as the profile names it
  /// Microseconds measured by Nsight Compute on the GPU; the modelled memory time, in units of
  /// one global sector, in emulation.
  double value = 0;
};

/// A kernel is compared from this many times the fastest other kernel's time.
inline constexpr double least_compared_ratio = 1.5;

/// The words that lead `kernel`'s costliest insight, comparing it with the fastest other kernel
/// of `profiled` on the same backend and shape; none below least_compared_ratio or without one.
[[nodiscard]] std::optional<std::string> comparison_lead(const kernel_time& kernel,
                                                         const std::vector<kernel_time>& profiled);

/// Leads the first insight of every kernel in `kernels` that has one with its comparison_lead
/// among `profiled`. A kernel without insights is left as it is.
void lead_with_comparisons(const std::vector<kernel_time>& profiled,
                           const std::vector<reports::kernel_report*>& kernels);

} // namespace cugrade::insight
