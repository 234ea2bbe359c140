#pragma once
/// \file
/// DIR/gradebook.csv: one row per roster student, in roster order, built from the journaled
/// reports (so a resumed batch and an uninterrupted one write the same bytes). Columns: student,
/// score, max_score, one <kernel>_score per kernel, late_days, late_penalty, gradable, commit,
/// report, reason (why a row is not gradable). An LMS imports it as is.

#include "grader/batch/journal.h"
#include "grader/batch/roster.h"

#include <map>
#include <string>
#include <vector>

namespace cugrade::batch {

/// The gradebook's text. `entries` maps student ids to their journal rows; a roster student
/// without a written report gets a not-gradable row saying so.
[[nodiscard]] std::string render_gradebook(const roster& r, const std::vector<std::string>& kernels,
                                           const std::map<std::string, journal_entry>& entries);

} // namespace cugrade::batch
