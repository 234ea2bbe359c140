#include "grader/perf/runner_call.h"

#include "grader/process/process.h"
#include "harness/core/file_io.h"

#include <csignal>
#include <cstring>

namespace cugrade::perf {

namespace {

std::string tail(const std::string& text, std::size_t max_bytes) {
  return text.size() <= max_bytes ? text : "..." + text.substr(text.size() - max_bytes);
}

} // namespace

bool runner_outcome::clean() const {
  return log.started && log.finished && !timed_out && term_signal == 0 && exit_code == 0;
}

std::string runner_outcome::ending() const {
  if (timed_out) {
    return "the run exceeded its time limit and was stopped";
  }
  if (term_signal != 0) {
    return std::string("the runner died with signal ") + sigabbrev_np(term_signal);
  }
  if (!log.fault_kind.empty()) {
    return "the runner stopped on a fault (" + log.fault_kind + "): " + log.fault_message;
  }
  if (exit_code != 0) {
    return "the runner exited with status " + std::to_string(exit_code) + ": " + stderr_tail;
  }
  return log.finished ? "the run completed" : "the runner stopped before reporting its end";
}

result<runner_outcome> run_runner(const std::filesystem::path& runner, const protocol::plan& plan,
                                  double time_limit_seconds,
                                  const std::vector<std::string>& wrapper,
                                  std::size_t file_size_bytes) {
  std::filesystem::create_directories(plan.output_dir);
  const auto plan_path = plan.output_dir / "plan.json";
  if (const auto written = write_file_atomically(plan_path, protocol::to_json_text(plan));
      !written) {
    return fail("cannot write the runner's plan: " + written.error());
  }
  process::spawn_options opts;
  opts.argv = wrapper;
  opts.argv.insert(opts.argv.end(), {runner.string(), "--plan", plan_path.string()});
  opts.time_limit_seconds = time_limit_seconds;
  opts.file_size_bytes = file_size_bytes;
  opts.capture_limit_bytes = std::size_t{256} << 10;
  const auto proc = process::run_process(opts);
  if (!proc) {
    return fail((wrapper.empty() ? "cannot start the runner " : "cannot start ") +
                opts.argv.front() + ": " + proc.error());
  }
  runner_outcome out;
  out.log = protocol::read_events(plan.output_dir / protocol::events_file_name);
  out.timed_out = proc->timed_out;
  out.exit_code = proc->exit_code;
  out.term_signal = proc->timed_out ? 0 : proc->term_signal;
  out.stderr_tail = tail(proc->stderr_text, 2000);
  out.wall_seconds = proc->wall_seconds;
  return out;
}

} // namespace cugrade::perf
