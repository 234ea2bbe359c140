#include "grader/core/kernel_run.h"

#include "grader/core/source_lines.h"
#include "grader/process/process.h"
#include "reports/atomic_file.h"

namespace cugrade::grader {

namespace {

std::string tail(const std::string& text, std::size_t max_bytes) {
  return text.size() <= max_bytes ? text : "..." + text.substr(text.size() - max_bytes);
}

} // namespace

result<kernel_run> run_kernel(const std::filesystem::path& runner, const protocol::plan& plan,
                              double time_limit_seconds) {
  std::filesystem::create_directories(plan.output_dir);
  const auto plan_path = plan.output_dir / "plan.json";
  std::string err;
  if (!reports::write_file_atomically(plan_path, protocol::to_json_text(plan), &err)) {
    return fail("cannot write the runner's plan: " + err);
  }

  process::spawn_options opts;
  opts.argv = {runner.string(), "--plan", plan_path.string()};
  opts.time_limit_seconds = time_limit_seconds;
  opts.file_size_bytes = std::size_t{4} << 30;
  opts.capture_limit_bytes = std::size_t{256} << 10;
  const auto proc = process::run_process(opts);
  if (!proc) {
    return fail("cannot start the runner " + runner.string() + ": " + proc.error());
  }
  kernel_run run;
  run.log = protocol::read_events(plan.output_dir / protocol::events_file_name);
  run.exit.timed_out = proc->timed_out;
  run.exit.term_signal = proc->timed_out ? 0 : proc->term_signal;
  run.exit.exit_code = proc->exit_code;
  run.exit.time_limit_seconds = time_limit_seconds;
  run.wall_seconds = proc->wall_seconds;
  run.exit.stderr_tail = tail(proc->stderr_text, 2000);
  if (!run.log.fault_pc_offset.empty()) {
    if (auto line = source_line_of(run.log.fault_object, run.log.fault_pc_offset)) {
      run.log.fault_message += " at " + *line;
    }
  }
  return run;
}

} // namespace cugrade::grader
