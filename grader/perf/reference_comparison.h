#pragma once
/// \file
/// A student's launcher timed against the reference's cached time (docs/timing.md, section 3):
/// one student round (retried while noisy), then a short control measurement of the reference
/// compared with its cached samples; the reference is timed in full only when the cache has no
/// entry or the control moved by more than the drift limit. `--precise` keeps the A B B A rounds
/// of comparison.h instead.

#include "grader/perf/comparison.h"
#include "grader/perf/performance_entries.h"
#include "grader/perf/reference_timings.h"

#include <optional>
#include <string>
#include <vector>

namespace cugrade::perf {

/// The noise rule (docs/timing.md, "Noise is never silent").
struct noise_rule {
  double max_rsd = 0.02; ///< a case whose kept samples spread more than this is noisy...
  int retries = 2;       ///< ...after this many more rounds
};

/// The largest relative standard deviation of a run's cases (0 for a run without samples).
[[nodiscard]] double max_rsd(const launcher_run& run);

/// Times `side` in one round, again while a case is noisy (up to rule.retries more rounds), and
/// keeps the least noisy round. A round that fails its checks ends the tries.
[[nodiscard]] result<launcher_run> time_with_retries(const comparison_setup& setup,
                                                     const std::string& launcher,
                                                     const timed_side& side, const noise_rule& rule,
                                                     const std::string& folder);

/// The reference's samples for one case, and where they came from.
struct reference_side {
  pooled_samples samples;
  std::string source; ///< "cache" or "measured"
  std::optional<double> control_ratio;
  bool noisy = false;
};

struct cached_reference_setup {
  comparison_setup timing; ///< the full protocol, for the student and for a full re-time
  protocol::timing_request control; ///< the control measurement's (shorter) protocol
  double drift_limit = 0.01;        ///< re-time when |control / cached - 1| exceeds this
  noise_rule noise;
  reference_timing_cache cache{""};
  reference_timing_key key; ///< gpu, driver, library and spec; launcher and case are set here
};

/// The reference's time for every case of `setup.timing.cases`: the cache confirmed by a control
/// measurement, or a full measurement (stored in the cache unless noisy). Fails when a runner
/// cannot start or when the reference fails its own checks (a harness or reference bug).
[[nodiscard]] result<std::vector<reference_side>>
cached_reference_times(const cached_reference_setup& setup, const std::string& launcher,
                       const std::filesystem::path& reference_library);

} // namespace cugrade::perf
