#pragma once
/// \file
/// From timing runs to the report: one performance entry per benchmark case (median, spread,
/// GFLOP/s or GB/s, % of the roof, the library's figure, the speedup over the reference with its
/// interval, plausibility), and the kernel's performance points and leaderboard metric.

#include "grader/perf/launcher_timing.h"
#include "grader/spec/assignment_spec.h"
#include "harness/roofline/roofline.h"
#include "reports/report.h"

#include <cstdint>
#include <vector>

namespace cugrade::perf {

/// The kept samples of one case, pooled over several runs.
struct pooled_samples {
  std::vector<double> event_ms;
  std::vector<double> host_ms;
  std::vector<double> clock_mhz;
  /// Why a run was timed without the launch gate (empty when every run was gated or the plan
  /// asked for no gate): a launcher that waits on the device inside the call.
  std::string ungated_note;
};

/// Case `index` of every run, pooled.
[[nodiscard]] pooled_samples pool(const std::vector<launcher_run>& runs, std::size_t index);

/// Everything one entry is made from.
struct entry_source {
  problems::kind problem; ///< no default (problems::kind): set by whoever makes one
  problems::test_case tc;
  pooled_samples measured;
  const pooled_samples* reference = nullptr; ///< null: no speedup (bench, or a failed check)
  const roofline::device_roofline* roof = nullptr;
  std::uint64_t bootstrap_seed = 0;
  /// Samples that spread more than this (relative standard deviation) are noisy: no speedup.
  /// 0: never noisy.
  double noisy_rsd = 0;
};

/// The entry for one case. A suspicious time gets no speedup.
[[nodiscard]] reports::performance_entry make_entry(const entry_source& source);

/// GFLOP/s (matmul) or GB/s (others), % of the roof and the library figure, from the median.
void add_roofline_figures(reports::performance_entry& e, problems::kind problem,
                          const problems::test_case& tc, const roofline::device_roofline* roof);

/// How far below full_speedup a speedup still earns full points: the protocol's reproducibility
/// (the reference timed against itself comes out 1.00 +/- 0.02).
inline constexpr double speedup_tolerance = 0.02;

/// The kernel's speedup geometric mean and performance points: the spec's curve at the geometric
/// mean of the speedups over every case (within speedup_tolerance of full_speedup counts as
/// full); nothing when a case has no speedup (suspicious or unverified). Adds the points to
/// k.score.
void score_performance(reports::kernel_report& k, const spec::kernel_spec& kernel,
                       const spec::performance_curve& curve);

/// A stable seed for a case's bootstrap, from the kernel and case names.
[[nodiscard]] std::uint64_t bootstrap_seed(std::string_view kernel, std::string_view case_name);

} // namespace cugrade::perf
