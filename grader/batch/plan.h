#pragma once
/// \file
/// What a (re)started batch still owes: the journal compared with the roster. A student is
/// graded when new, when its roster row changed, when --regrade selects it, or when an earlier
/// run stopped before its report reached the journal (queued, fetched, built). A student whose
/// report is in the journal (graded) or whose files went missing only has its files written
/// again: nobody is graded twice.

#include "grader/batch/batch.h"
#include "grader/batch/journal.h"

#include <set>
#include <string>
#include <vector>

namespace cugrade::batch {

struct batch_plan {
  std::vector<const roster_entry*> to_grade;
  std::vector<std::string> to_deliver; ///< files to write from the journal
  std::size_t done = 0;                ///< already written and intact
  /// What the batch must say before it starts: each report file that no longer holds what was
  /// written (another student's report over it, or an edit), and is written again.
  std::vector<std::string> notices;
};

/// The journal's record of what a student's grading depends on.
[[nodiscard]] std::string grading_inputs(const roster_entry& e, const batch_options& o);

/// Checks --regrade's words: all, failed, not-gradable, new-commits or roster students.
[[nodiscard]] result<void> check_regrade_words(const batch_options& o);

/// The students --regrade selects (new-commits needs `with_new_commits`, computed by the caller).
[[nodiscard]] std::set<std::string>
regrade_selection(const batch_options& o, journal& j,
                  const std::set<std::string>& with_new_commits);

/// Puts every student to grade back to queued and returns the plan. A written student whose
/// report files are missing or changed is delivered again from the journal.
[[nodiscard]] batch_plan plan_batch(const batch_options& o, journal& j,
                                    const std::set<std::string>& forced);

} // namespace cugrade::batch
