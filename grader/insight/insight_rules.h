#pragma once
/// \file
/// From a kernel's memory profile to what a student reads: its metrics, and the causes that cost
/// it time, each at its line, ranked by the share of the kernel's modelled memory time it wastes
/// (docs/insight.md, "How causes are ranked"). A cause that wastes less than a tenth is not said.

#include <string>
#include <vector>

#include "grader/insight/memory_profile.h"
#include "reports/report.h"

namespace cugrade::insight {

/// The student's source, to quote the line of an access.
struct source_context {
  std::string file;               ///< as the student named it, e.g. "matmul.cu"
  std::vector<std::string> lines; ///< its text, line 1 first
};

/// The modelled cost of one unit of each kind (docs/insight.md): a global sector is 1.
inline constexpr double shared_wavefront_cost = 0.5;
inline constexpr double global_atomic_cost = 2;
inline constexpr double shared_atomic_cost = 1;
/// Causes that waste less than this share of the modelled time are not reported.
inline constexpr double least_reported_share = 0.10;

[[nodiscard]] std::vector<reports::insight_metric> metrics_of(const memory_profile& m);
[[nodiscard]] std::vector<reports::insight> insights_of(const memory_profile& m,
                                                        const source_context& source);
/// The modelled memory time of the profiled case, in global-sector units.
[[nodiscard]] double modelled_cost(const memory_profile& m);

} // namespace cugrade::insight
