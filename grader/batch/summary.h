#pragma once
/// \file
/// DIR/summary.json: students per outcome, kernel statuses and pass rates over the class, this
/// run's wall time, gradings and submissions per hour, the stage breakdown and how busy the GPUs
/// were. Also what `scripts/batch-benchmark` prints.

#include "grader/batch/journal.h"
#include "grader/batch/roster.h"
#include "reports/report.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::batch {

/// A student's outcome for the counts: every kernel passed, some did not, or not gradable.
enum class outcome { full_marks, partial, not_gradable };
[[nodiscard]] std::string_view to_string(outcome o);
[[nodiscard]] outcome outcome_of(const reports::report& r);

/// What this run measured.
struct run_measures {
  std::string backend;
  double wall_seconds = 0;
  std::size_t graded = 0; ///< reports produced by this run
  std::size_t jobs = 0;
  std::vector<std::string> gpus;
  /// Per GPU, the fraction of the wall time it had a grading on it (none in emulation).
  std::vector<double> gpu_busy_fraction;
  /// Sum over this run's gradings of each stage's seconds.
  double fetch_seconds = 0, build_seconds = 0, run_seconds = 0;
};

[[nodiscard]] nlohmann::ordered_json
summary_json(const roster& r, const std::map<std::string, journal_entry>& e, const run_measures& m);

} // namespace cugrade::batch
