#include "grader/core/kernel_run.h"

#include "grader/core/source_lines.h"
#include "grader/runners/runner_call.h"

namespace cugrade::grader {

result<kernel_run> run_kernel(const runners::run_context& context,
                              const std::filesystem::path& runner, const protocol::plan& plan,
                              double time_limit_seconds) {
  // A correctness run writes one small output per case: 4 GiB is plenty. A runner that enforces
  // the limit itself (the emulator's watchdog) is stopped here only as a backstop.
  const double kill_after =
      plan.time_limit_seconds > 0 ? backstop_seconds(plan.time_limit_seconds) : time_limit_seconds;
  auto proc = runners::run_runner(context, runner, plan, kill_after, {}, std::size_t{4} << 30);
  if (!proc) {
    return fail(proc.error());
  }
  kernel_run run;
  run.log = std::move(proc->log);
  // The watchdog's own stop reads as the grader's: a timeout.
  run.exit.timed_out = proc->timed_out || (run.log.fault_kind == reports::fault_kind::timeout &&
                                           plan.time_limit_seconds > 0);
  run.exit.term_signal = proc->term_signal;
  run.exit.exit_code = proc->exit_code;
  run.exit.time_limit_seconds = time_limit_seconds;
  run.exit.launcher = plan.launcher;
  run.wall_seconds = proc->wall_seconds;
  run.exit.stderr_tail = std::move(proc->stderr_tail);
  if (!run.log.fault_pc_offset.empty()) {
    if (auto line = source_line_of(run.log.fault_object, run.log.fault_pc_offset)) {
      run.log.fault_message += " at " + *line;
    }
  }
  return run;
}

} // namespace cugrade::grader
