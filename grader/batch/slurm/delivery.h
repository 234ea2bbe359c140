#pragma once
/// \file
/// How a Slurm task hands a graded student to the submitting process: one file per student,
/// DIR/slurm/results/<student>.json, written to a temporary name in the same folder, fsynced and
/// renamed (atomic on NFS too: a reader sees no file or the whole file). The file carries the
/// report exactly as the task's journal stored it, the roster inputs it was graded for, the job
/// that graded it and the stage times, so the submitter journals it as if graded locally. No
/// task ever opens the SQLite journal.

#include "harness/core/result.h"

#include <filesystem>
#include <string>

namespace cugrade::batch {

struct delivery {
  std::string student;
  std::string inputs;      ///< the journal's record of the roster row (plan.h: grading_inputs)
  std::string job;         ///< the Slurm array job id that graded it ("" outside Slurm)
  std::string commit;      ///< the graded commit (git sources)
  std::string report_json; ///< byte for byte the report the task journaled
  double fetch_seconds = 0, build_seconds = 0, run_seconds = 0;
};

/// `<results_dir>/<student>.json`.
[[nodiscard]] std::filesystem::path delivery_path(const std::filesystem::path& results_dir,
                                                  const std::string& student);

/// Writes the delivery atomically.
[[nodiscard]] result<void> hand_over(const std::filesystem::path& results_dir, const delivery& d);

/// Reads one; fails (naming the file) when it is unreadable or not a delivery.
[[nodiscard]] result<delivery> read_delivery(const std::filesystem::path& file);

} // namespace cugrade::batch
