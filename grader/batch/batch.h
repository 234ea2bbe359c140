#pragma once
/// \file
/// `cugrade batch`: every student of a roster graded by the same code as `cugrade grade`
/// (grader/core/grade.h), in parallel on one machine, resumable from a journal, ending in a
/// gradebook. docs/batch.md explains the roster, the journal, resuming and regrading.

#include "grader/batch/lms_gradebook.h"
#include "grader/batch/roster.h"
#include "grader/core/grade.h"
#include "grader/layout/layout.h"
#include "grader/spec/assignment_spec.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::batch {

/// `--slurm`: the batch runs as one Slurm job array (docs/batch.md, "On a Slurm cluster").
struct slurm_options {
  std::string partition;                 ///< empty: the cluster's default
  std::string account;                   ///< empty: the user's default
  std::size_t gpus_per_task = 1;         ///< --gres=gpu:N (GPU backend only)
  std::size_t max_parallel = 0;          ///< array tasks running at once (%K); 0: no limit
  std::size_t shard_size = 20;           ///< students per array task
  std::optional<int> time_limit_minutes; ///< per task; default: from the spec and shard size
  /// The cache every task shares (reference builds, reference timings, rooflines); default
  /// DIR/slurm/cache.
  std::filesystem::path shared_cache;
  double poll_seconds = 5; ///< how often the submitter looks at sacct and the delivered reports
};

struct batch_options {
  /// What every student's grading shares, as `cugrade grade` takes it: the assignment (a name
  /// under assignments/ or a path to a spec), where the hidden groups come from (--hidden), the
  /// backend asked for, the deadline of students without their own (--deadline), --kernel-timeout
  /// and --kernel. Each student is graded with a copy of it that adds the student's submission,
  /// commit, id and own deadline, the backend the batch chose and its hooks (pipeline.cpp).
  /// Its out_dir and formats are unused: the batch writes the files itself (below).
  grader::grade_options grading;
  batch::roster roster;
  /// The batch's folder (reports/, gradebooks, summary.json, journal), not one grading's
  /// report folder as grading.out_dir would be.
  std::filesystem::path out_dir;
  std::size_t jobs = 0; ///< CPU workers; 0: every core
  /// Each student's report formats (json is always written): a batch defaults to json alone
  /// where `cugrade grade` adds text, hence not grading.formats.
  std::vector<std::string> formats{"json"};
  /// --gradebook: the LMS gradebook written besides gradebook.csv (generic: none).
  gradebook_format gradebook = gradebook_format::generic;
  std::string lms_assignment_name; ///< --lms-assignment; empty: the spec's name
  std::string lms_assignment_id;   ///< --lms-assignment-id
  /// all | failed | not-gradable | new-commits | student ids
  std::vector<std::string> regrade;
  std::vector<std::string> gpus; ///< CUDA_VISIBLE_DEVICES values; empty: every visible GPU
  std::size_t per_gpu = 4;       ///< gradings running at once on one GPU
  /// --no-sandbox was given (the gradings here run unconfined; Slurm tasks are told the same).
  bool unconfined = false;
  /// The command that reruns this batch, for "regrade with: ..." lines.
  std::string rerun_command;
  bool live_progress = false; ///< a redrawn status line (a terminal) instead of plain lines
  /// Submit the batch to Slurm instead of grading here.
  std::optional<slurm_options> slurm;
  /// Inside a Slurm task: also hand every written report to this folder (the submitter's
  /// DIR/slurm/results), one file per student, by atomic rename.
  std::optional<std::filesystem::path> deliver_to;
};

/// Exit codes: 0 every roster student has a gradebook row; 2 usage (bad assignment, roster or
/// options); 3 infrastructure (journal, output folder); 130 stopped by Ctrl-C.
struct batch_result {
  int exit_code = 0;
  std::string error;
};

/// Grades here, or with `options.slurm` submits to Slurm and collects (slurm/slurm_batch.h).
[[nodiscard]] batch_result run_batch(const batch_options& options, const grader::layout& l);

} // namespace cugrade::batch
