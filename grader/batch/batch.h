#pragma once
/// \file
/// `cugrade batch`: every student of a roster graded by the same code as `cugrade grade`
/// (grader/core/grade.h), in parallel on one machine, resumable from a journal, ending in a
/// gradebook. docs/batch.md explains the roster, the journal, resuming and regrading.

#include "grader/batch/roster.h"
#include "grader/layout/layout.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::batch {

struct batch_options {
  std::string assignment; ///< a name under assignments/ or a path to a spec
  batch::roster roster;
  std::filesystem::path out_dir;
  std::string backend = "auto";
  std::size_t jobs = 0;                     ///< CPU workers; 0: every core
  std::optional<std::string> deadline;      ///< for students without their own
  std::vector<std::string> formats{"json"}; ///< json is always written
  /// all | failed | not-gradable | new-commits | student ids
  std::vector<std::string> regrade;
  std::optional<double> kernel_timeout_seconds;
  std::vector<std::string> kernels; ///< grade only these launchers (empty: all)
  std::vector<std::string> gpus;    ///< CUDA_VISIBLE_DEVICES values; empty: every visible GPU
  std::size_t per_gpu = 4;          ///< gradings running at once on one GPU
  /// The command that reruns this batch, for "regrade with: ..." lines.
  std::string rerun_command;
  bool live_progress = false; ///< a redrawn status line (a terminal) instead of plain lines
};

/// Exit codes: 0 every roster student has a gradebook row; 2 usage (bad assignment, roster or
/// options); 3 infrastructure (journal, output folder); 130 stopped by Ctrl-C.
struct batch_result {
  int exit_code = 0;
  std::string error;
};

[[nodiscard]] batch_result run_batch(const batch_options& options, const grader::layout& l);

} // namespace cugrade::batch
