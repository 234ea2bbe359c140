#pragma once
/// \file
/// What one Slurm submission consists of: the students cut into shards (one roster CSV per array
/// task, rows exactly as the submitter's roster resolved them, each with its effective deadline),
/// the task time limit, and the job script that runs `cugrade batch` on the task's shard with
/// `--deliver-to` the shared results folder.

#include "grader/batch/batch.h"
#include "grader/spec/assignment_spec.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::batch {

/// The students of one array task, in roster order.
using shard = std::vector<const roster_entry*>;

/// `students` cut into consecutive shards of at most `shard_size` (at least one student each).
[[nodiscard]] std::vector<shard> make_shards(const std::vector<const roster_entry*>& students,
                                             std::size_t shard_size);

/// A shard as a roster CSV (student, repository, commit, deadline, nickname); a student without
/// a deadline of its own gets `default_deadline` when one is given.
[[nodiscard]] std::string shard_roster_csv(const shard& s,
                                           const std::optional<std::string>& default_deadline);

/// Minutes an array task may run: per student, a minute to fetch, the spec's compile limit and
/// each kernel's limit (`kernel_seconds`; three times on a GPU: correctness, sanitizer, timing),
/// times the rounds a task of `shard_size` students with `jobs` at once needs, plus a quarter
/// and five minutes to start.
[[nodiscard]] int task_minutes(const spec::limits& lim, std::size_t kernels,
                               double kernel_seconds, std::size_t shard_size, std::size_t jobs,
                               bool gpu);

/// Everything the job script needs.
struct job_script_inputs {
  std::filesystem::path cugrade;       ///< this program, absolute
  std::string assignment;              ///< a name, or an absolute spec path
  std::filesystem::path submission_dir; ///< holds shard-<i>.csv
  std::filesystem::path results_dir;
  std::filesystem::path logs_dir;
  std::filesystem::path shared_cache;
  std::string job_name;
  std::size_t tasks = 0;
  int minutes = 0;
  bool gpu = false;
  std::size_t jobs = 1; ///< gradings at once inside a task (its CPUs)
  const batch_options* options = nullptr;
};

/// The sbatch script (all options as #SBATCH lines).
[[nodiscard]] std::string job_script(const job_script_inputs& in);

} // namespace cugrade::batch
