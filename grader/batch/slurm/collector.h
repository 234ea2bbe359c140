#pragma once
/// \file
/// The submitting process while Slurm grades: every few seconds it takes the reports the tasks
/// have delivered (journaling each exactly as a local grading would: fetched, built, graded,
/// then the files written from the journal, then written) and asks sacct for the tasks' states,
/// until every task has ended. Then it says, task by task, what sacct reported and which
/// students have no report; those stay queued in the journal, so the same command resubmits
/// exactly them.

#include "grader/batch/pipeline.h"
#include "grader/batch/slurm/slurm_commands.h"
#include "grader/batch/slurm/submission.h"

#include <set>

namespace cugrade::batch {

struct collected_job {
  array_state final_states;
  std::vector<std::string> missing; ///< students of the job left without a report
  bool stopped = false;              ///< Ctrl-C while waiting (the job keeps running)
};

/// Waits for `s` to end, collecting as reports arrive; fails when sacct cannot answer.
[[nodiscard]] result<collected_job> wait_and_collect(pipeline& p, const submission& s,
                                                     const std::filesystem::path& results);

} // namespace cugrade::batch
