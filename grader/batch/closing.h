#pragma once
/// \file
/// What a batch does around its gradings, whether they ran on this machine or as Slurm tasks:
/// checking that the output folder was graded with the same assignment, spec and backend, and
/// ending with the gradebook, summary.json and the closing lines (not-gradable students with the
/// command that regrades them, the throughput).

#include "grader/batch/pipeline.h"
#include "grader/batch/summary.h"
#include "grader/spec/assignment_spec.h"

namespace cugrade::batch {

inline constexpr int exit_usage = 2;
inline constexpr int exit_infrastructure = 3;
inline constexpr int exit_interrupted = 130;

/// Refuses a folder graded with another assignment, spec or backend (unless --regrade all) and
/// records this run's.
[[nodiscard]] result<void> check_folder(journal& j, const spec::assignment_spec& spec,
                                        reports::backend_kind backend, const batch_options& o);

/// Every journal row by student.
[[nodiscard]] std::map<std::string, journal_entry> entries_by_student(journal& j);

/// Writes DIR/gradebook.csv and DIR/summary.json from the journal.
[[nodiscard]] result<void> write_outputs(pipeline& p, const spec::assignment_spec& spec,
                                         const run_measures& m);

/// The closing words: each not-gradable student with its regrade command, where the gradebook
/// is, and this run's throughput.
void print_closing(pipeline& p, const run_measures& m);

/// Ends a batch: the outputs and the closing lines, or the error that prevented them
/// (`p.failures`: reports that could not be written).
[[nodiscard]] batch_result finish_batch(pipeline& p, const spec::assignment_spec& spec,
                                        const run_measures& m);

/// Why a batch left students ungraded because a GPU stopped working: the probe's words, whether
/// it went on with `gpus_left` GPUs or stopped (none left), how many students are left ungraded,
/// those in flight then (graded last by the next run), what to check (nvidia-smi's recovery
/// action, the kernel log's Xid lines) and the command that continues once the GPU works again.
[[nodiscard]] std::string machine_lost_words(const std::string& why, std::size_t not_graded,
                                             const std::vector<std::string>& in_flight,
                                             const std::string& rerun_command,
                                             std::size_t gpus_left);

} // namespace cugrade::batch
