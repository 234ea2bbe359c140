#pragma once
/// \file
/// One submission of a batch to Slurm: DIR/slurm/submission-<n>/ with a roster CSV per array
/// task and the job script, the array job id, and which students each task grades. The journal
/// remembers the submission being waited for (settings `slurm_job`, `slurm_submission`), so a
/// submitter stopped while waiting collects that job on its next run instead of submitting again.

#include "grader/batch/journal.h"
#include "grader/batch/slurm/job_script.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::batch {

/// DIR/slurm and what lives there.
struct slurm_folders {
  std::filesystem::path root;    ///< DIR/slurm
  std::filesystem::path results; ///< deliveries, one file per student
  std::filesystem::path logs;    ///< one log per task
  std::filesystem::path cache;   ///< the tasks' shared cache
};
[[nodiscard]] slurm_folders folders_of(const batch_options& o);

struct submission {
  std::string job; ///< the array job id
  std::filesystem::path dir;
  std::vector<std::vector<std::string>> tasks; ///< each task's students
};

/// What the job script needs besides the shards (everything but the folders and the count).
struct submission_plan {
  std::string assignment; ///< as the tasks must name it
  std::string job_name;
  int minutes = 0;
  bool gpu = false;
  std::size_t jobs = 1;
};

/// Writes the next submission's folder for `students` (removing their stale deliveries first),
/// submits it with sbatch and records it in the journal.
[[nodiscard]] result<submission> submit(journal& j, const batch_options& o,
                                        const std::vector<const roster_entry*>& students,
                                        const submission_plan& plan);

/// The submission the journal says is being waited for, if any.
[[nodiscard]] result<std::optional<submission>> pending_submission(journal& j);

/// The submission is collected: forget it.
void forget_submission(journal& j);

} // namespace cugrade::batch
