#pragma once
/// \file
/// The Slurm commands the submitter uses: `sbatch --parsable` to submit the array, `sacct` for
/// the state of each array task. `sbatch --wait` has been seen to report success for a failed
/// job, so the final state of every task comes from `sacct` (the accounting database), polled
/// until every task has ended.

#include "harness/core/result.h"

#include <filesystem>
#include <map>
#include <string>

namespace cugrade::batch {

/// One array task as sacct reports it.
struct task_state {
  std::string state;     ///< COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, PREEMPTED, ...
  std::string detail;    ///< the rest of sacct's state, e.g. "by 1000" after CANCELLED
  std::string exit_code; ///< "0:0" (exit status : signal)
  std::string elapsed;   ///< "00:01:12"
};

/// Tasks by index; `pending` counts tasks sacct still lists as a pending range ("12_[3-9%2]").
struct array_state {
  std::map<std::size_t, task_state> tasks;
  bool pending = false;
};

/// Parses `sacct -X -n -P -o JobID,State,ExitCode,Elapsed` output for array job `job`.
[[nodiscard]] array_state parse_sacct(const std::string& job, const std::string& text);

/// True for the states a task never leaves (it will not run again: --no-requeue).
[[nodiscard]] bool is_final(const task_state& t);

/// True when all `tasks` tasks have a final state.
[[nodiscard]] bool all_final(const array_state& a, std::size_t tasks);

/// "task 0 COMPLETED (exit 0:0, 00:00:21)".
[[nodiscard]] std::string describe(std::size_t task, const task_state& t);

/// Asks sacct; fails with sacct's words when it cannot answer (no accounting database...).
[[nodiscard]] result<array_state> query_sacct(const std::string& job);

/// Fails with sacct's words when sacct cannot answer at all (e.g. "Slurm accounting storage is
/// disabled"): then a submitted job could not be followed, so nothing is submitted.
[[nodiscard]] result<void> check_sacct();

/// Submits `script` with `sbatch --parsable`; the array job id.
[[nodiscard]] result<std::string> submit_script(const std::filesystem::path& script);

} // namespace cugrade::batch
