#pragma once
/// \file
/// DIR/gradebook.csv: one row per roster student, in roster order, built from the journaled
/// reports (so a resumed batch and an uninterrupted one write the same bytes). Columns: student,
/// score, max_score, one <kernel>_score per kernel, late_days, late_penalty, gradable, commit,
/// report, reason (why a row is not gradable). A student without a score (not gradable, or not
/// graded yet) has an empty score and the assignment's max_score. The LMS gradebooks
/// (lms_gradebook.h) are built from the same rows.

#include "grader/batch/journal.h"
#include "grader/batch/roster.h"
#include "reports/report.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::batch {

/// What every gradebook shows of one roster student.
struct gradebook_row {
  const roster_entry* entry = nullptr;
  /// The written report; nullopt when there is none (`reason` says why).
  std::optional<reports::report> report;
  std::string report_path; ///< relative to DIR; empty without a report
  /// Why the student has no score (not gradable, not graded yet); empty with a score.
  std::string reason;
  /// The student's points, absent exactly when `reason` is not empty.
  [[nodiscard]] std::optional<double> score() const;
};

/// One row per roster student, in roster order; `entries` maps student ids to their journal
/// rows.
[[nodiscard]] std::vector<gradebook_row>
gradebook_rows(const roster& r, const std::map<std::string, journal_entry>& entries);

/// The gradebook's text. `max_score` is what the batch can award (grader::maximum_score): the
/// max_score of every row without a report of its own.
[[nodiscard]] std::string render_gradebook(const std::vector<gradebook_row>& rows,
                                           const std::vector<std::string>& kernels,
                                           double max_score);

} // namespace cugrade::batch
