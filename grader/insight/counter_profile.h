#pragma once
/// \file
/// A kernel's memory behaviour from Nsight Compute's counters on the GPU (docs/insight.md, "On
/// the GPU"), in the same terms as the emulator's warp profile (memory_profile.h), so one set of
/// rules names the causes on both backends. The counters are the kernel's totals: no source
/// line, so a cause on the GPU names the kind of access, and `cugrade check --perf` the line.
///
/// What the counters give, and what they do not:
/// - global requests and 32-byte sectors, loads and stores apart; the ideal is the bytes the
///   threads asked for (sm__sass_data_bytes_mem_global_op_*), packed into sectors;
/// - shared requests (instructions) and wavefronts; the ideal is one wavefront per request, or
///   the bytes asked for over the 128 a wavefront carries;
/// - atomics per element from the bytes atomics asked for, in words of 4 (the course's bins and
///   sums are 4-byte words);
/// - occupancy as the launch allows it (registers included) and as achieved;
/// - not the lanes of one request (ncu counts warp instructions, not threads, per memory op),
///   so not the requests packed warps would need: idle lanes are emulation's to say. (The bytes
///   the threads asked for do not give them: a broadcast counts its word once; on an H200 that
///   made the reference tiled matmul look twice as spread as it is.)

#include <map>
#include <string>
#include <vector>

#include "grader/insight/memory_profile.h"
#include "reports/report.h"

namespace cugrade::insight {

/// The counters as grader/perf read them: each metric summed over the profiled launches, and the
/// values of the launch with the most threads (its configuration and occupancy).
struct counter_readings {
  std::map<std::string, double> sums;
  std::map<std::string, double> widest_launch;
  std::size_t launches = 0;
};

/// The profile the rules read (insights_of) of the launcher `kernel`: one "line" 0 per kind of
/// access.
[[nodiscard]] memory_profile profile_from_counters(const problems::problem& problem,
                                                   const problems::shape& s,
                                                   std::string_view kernel,
                                                   const counter_readings& c);

/// What only the GPU measures: achieved occupancy, registers per thread, lanes per executed
/// instruction, DRAM bytes against the problem's minimum and the kernel's duration.
[[nodiscard]] std::vector<reports::insight_metric>
measured_only_metrics(const problems::problem& problem, const problems::shape& s,
                      const counter_readings& c);

} // namespace cugrade::insight
