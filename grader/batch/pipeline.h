#pragma once
/// \file
/// Grading the students a batch still owes, on worker threads: each calls grader::grade (the
/// same pipeline as `cugrade grade`), journals its stages through grade_hooks, takes a GPU slot
/// between build and runs, then stores the report in the journal (`graded`), writes the files
/// from it and marks the student `written`.

#include "grader/batch/batch.h"
#include "grader/batch/journal.h"
#include "grader/batch/progress.h"
#include "grader/batch/slots.h"
#include "grader/core/backend_choice.h"
#include "reports/report.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace cugrade::batch {

/// A GPU of the batch that stopped working: its index in `slots::gpus()` and its probe's words.
struct lost_gpu {
  std::size_t gpu = 0;
  std::string why;
};

/// What the workers share.
struct pipeline {
  pipeline(const batch_options& o, const grader::layout& l, const grader::backend_choice& b,
           journal& j, slots& s, progress& shown_to)
      : options(o), layout(l), backend(b), log(j), places(s), shown(shown_to) {}
  const batch_options& options;
  const grader::layout& layout;
  const grader::backend_choice& backend;
  journal& log;
  slots& places;
  progress& shown;
  /// Per GPU of `places`, its own probe's identity (absent when that probe failed).
  std::vector<std::optional<protocol::device_identity>> gpu_identities;
  std::atomic<bool> stop{false};
  /// Asked after a grading the machine may have spoiled (machine_may_be_at_fault), with the
  /// index in `places.gpus()` of the GPU its runs took (none when it stopped before them):
  /// nothing while the GPUs in service still grade, else the one that stopped answering its
  /// probe. That GPU is taken out of service; the batch goes on with the others, and stops when
  /// none is left. Unset: never asked (emulation has no device to lose).
  std::function<std::optional<lost_gpu>(std::optional<std::size_t> gpu)> machine_lost;
  /// Why GPUs stopped working during the batch (machine_lost's words, each once); empty while
  /// every GPU grades.
  [[nodiscard]] std::string lost_reason();
  /// The students whose gradings the machine spoiled, in the order they ended.
  [[nodiscard]] std::vector<std::string> lost_during();
  /// The machine stopped working (`why`, each reason kept once) during `student`'s grading: the
  /// student becomes a suspect in the journal (gpu_suspects.h).
  void record_loss(const std::string& why, const std::string& student);
  std::mutex totals_mutex;
  std::size_t graded = 0;
  double fetch_seconds = 0, build_seconds = 0, run_seconds = 0;
  std::vector<std::string> failures; ///< reports that could not be written

private:
  std::string m_lost_reason;              ///< guarded by totals_mutex
  std::vector<std::string> m_lost_during; ///< guarded by totals_mutex
};

/// Whether a report could come from a machine that failed, not from the submission: not
/// gradable. (A GPU whose firmware stops answering ends the runs it had in error or timeout; the
/// grading itself asks the GPU again then, and makes its report not gradable when the GPU no
/// longer answers: grader/core/gpu_loss.h.) Such a report is kept only once the machine is seen
/// to still work.
[[nodiscard]] bool machine_may_be_at_fault(const reports::report& r);

/// How one student is graded: the batch's shared settings (`o.grading`) with the student's
/// submission, commit, id and own deadline (else the batch's), the backend the batch chose, and no
/// files written (the batch writes them from the journal). The caller adds the hooks.
[[nodiscard]] grader::grade_options grading_options(const batch_options& o,
                                                    const grader::backend_choice& chosen,
                                                    const roster_entry& e);

/// Counts one grading of this run and its stage times (for summary.json and the closing lines).
void add_grading_times(pipeline& p, double fetch_seconds, double build_seconds, double run_seconds);

/// Writes a graded student's files from the journal and marks the student written.
void deliver(pipeline& p, const std::string& student, const std::string& report_json);

/// Starts the workers over `work`; they stop early once `p.stop` is set. Join the threads.
/// A grading the machine may have spoiled while `p.machine_lost` names a fault is not recorded
/// (the student stays before `graded`, so the next run grades them) and stops the batch.
[[nodiscard]] std::vector<std::jthread> start_workers(pipeline& p,
                                                      const std::vector<const roster_entry*>& work,
                                                      std::atomic<std::size_t>& remaining);

} // namespace cugrade::batch
