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

/// The error for a reference round that failed its own timed checks: a harness or reference bug,
/// never the student's.
[[nodiscard]] std::string reference_failure(const std::string& launcher, const launcher_run& run);

/// Times `side` in one round, again while a case is noisy (up to rule.retries more rounds), and
/// keeps the least noisy round, without checking its timed calls: the GPU's share, done holding
/// the GPU exclusively. A round that did not finish (a fault, a time-out) ends the tries. The
/// first round is `first` when given (already run: a launcher's share of the runner of
/// start_first_rounds); the other rounds run alone, in folders named from `folder`.
[[nodiscard]] result<launcher_run> run_with_retries(const comparison_setup& setup,
                                                    const std::string& launcher,
                                                    const timed_side& side, const noise_rule& rule,
                                                    const std::string& folder,
                                                    launcher_run* first = nullptr);

/// One runner for the first round of every one of `launchers` (one after another), started
/// ahead of the exclusive hold; run_started_launcher() and launcher_shares() give each its round.
[[nodiscard]] result<started_launcher> start_first_rounds(const comparison_setup& setup,
                                                          const std::vector<std::string>& launchers,
                                                          const timed_side& side,
                                                          const std::string& folder);

/// run_with_retries, then the checks of the kept round.
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
  comparison_setup timing;          ///< the full protocol, for the student and for a full re-time
  protocol::timing_request control; ///< the control measurement's (shorter) protocol
  double drift_limit = 0.01;        ///< re-time when |control / cached - 1| exceeds this
  noise_rule noise;
  reference_timing_cache cache{""};
  reference_timing_key key; ///< gpu, driver, library and spec; launcher and case are set here
};

// The reference's time for every case (docs/timing.md, section 3) comes in steps, so that the
// caller holds the GPU exclusively only for runner processes: load the cache; with the student's
// round, run the control (GPU); let the GPU go; check the control's timed calls and judge it
// (CPU); only when the cache is missing or the control moved, measure the reference in full
// (GPU again).

/// The cached samples of every case (nullopt where the cache has none).
[[nodiscard]] std::vector<std::optional<pooled_samples>>
load_cached_reference(const cached_reference_setup& setup, const std::string& launcher);
[[nodiscard]] bool every_case_cached(const std::vector<std::optional<pooled_samples>>& cached);

/// The control: a short round of the reference itself (setup.control), unchecked, in a runner of
/// its own.
[[nodiscard]] result<launcher_run> run_control(const cached_reference_setup& setup,
                                               const std::string& launcher,
                                               const std::filesystem::path& reference_library);
/// One runner for the controls of every one of `launchers`, started ahead of the exclusive hold;
/// run_started_launcher() and launcher_shares() give each its control.
[[nodiscard]] result<started_launcher>
start_controls(const cached_reference_setup& setup, const std::vector<std::string>& launchers,
               const std::filesystem::path& reference_library);
/// The control's timed-call checks (CPU only).
void check_control(const cached_reference_setup& setup, launcher_run& control);

/// Every cached case with the control's ratio; confirmed when every case is cached and each
/// control is quiet and within the drift limit (otherwise `why` says which moved).
struct control_verdict {
  std::vector<reference_side> sides;
  bool confirmed = false;
  std::string why;
};
/// Judges a checked control. Fails when the reference failed its own checks (a harness or
/// reference bug, never the student's).
[[nodiscard]] result<control_verdict>
judge_control(const cached_reference_setup& setup, const std::string& launcher,
              const std::vector<std::optional<pooled_samples>>& cached,
              const launcher_run& control);

/// The reference timed in full (one round, retried while noisy) and checked; each quiet case is
/// stored in the cache. `control`, when there was one, gives each side its ratio. The caller
/// holds the GPU exclusively. Fails when a runner cannot start or the reference fails its checks.
[[nodiscard]] result<std::vector<reference_side>>
measure_reference(const cached_reference_setup& setup, const std::string& launcher,
                  const std::filesystem::path& reference_library, const std::string& why,
                  const control_verdict* control);

} // namespace cugrade::perf
