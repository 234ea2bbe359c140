#include "grader/process/process.h"

#include "grader/process/detail/exec_plan.h"
#include "grader/process/detail/supervise.h"
#include "harness/core/elapsed.h"
#include "harness/core/error.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace cugrade::process {
namespace {

using steady = std::chrono::steady_clock;

double seconds_of(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) * 1e-6;
}

// Blocks until the child has exec'd (the close-on-exec pipe reaches end of file) or reported
// why it could not.
std::optional<detail::child_failure> read_child_failure(int fd) {
  detail::child_failure failure{};
  ssize_t got = 0;
  do {
    got = read(fd, &failure, sizeof failure);
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof failure)) {
    return failure;
  }
  return std::nullopt;
}

failure start_failure(const spawn_options& options, const detail::child_failure& why) {
  std::string message = "cannot start " + options.argv.front() + ": " + detail::describe(why.stage);
  if (why.stage == detail::child_stage::chdir) {
    message += " " + options.working_dir.string();
  }
  return fail(message + ": " + std::strerror(why.error_number));
}

process_result to_result(const detail::child_exit& exit, detail::output_stream& out,
                         detail::output_stream& err, steady::time_point start) {
  process_result result;
  if (WIFEXITED(exit.wait_status)) {
    result.exit_code = WEXITSTATUS(exit.wait_status);
  } else if (WIFSIGNALED(exit.wait_status)) {
    result.term_signal = WTERMSIG(exit.wait_status);
  }
  result.timed_out = exit.timed_out;
  result.wall_seconds = seconds_since(start);
  result.cpu_seconds = seconds_of(exit.usage.ru_utime) + seconds_of(exit.usage.ru_stime);
  result.max_rss_kb = exit.usage.ru_maxrss;
  result.stdout_text = out.text.text();
  result.stderr_text = err.text.text();
  result.output_truncated = out.text.truncated() || err.text.truncated();
  return result;
}

steady::duration duration_of(double seconds) {
  return std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(seconds));
}

detail::deadline_rule deadline_of(const spawn_options& options, steady::time_point start) {
  detail::deadline_rule rule;
  if (!options.time_limit_seconds) {
    return rule;
  }
  if (!options.limit_starts) {
    rule.fixed = start + duration_of(*options.time_limit_seconds);
    return rule;
  }
  rule.clock = options.limit_starts;
  rule.limit = duration_of(*options.time_limit_seconds);
  rule.before_start = start + duration_of(options.wait_limit_seconds);
  return rule;
}

} // namespace

result<process_result> run_process(const spawn_options& options) {
  auto plan = detail::make_exec_plan(options);
  if (!plan) {
    return fail(plan.error());
  }
  detail::unique_fd dev_null(open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!dev_null.valid()) {
    CUGRADE_THROW(std::string("cannot open /dev/null: ") + std::strerror(errno));
  }
  detail::pipe_pair out = detail::make_pipe();
  detail::pipe_pair err = detail::make_pipe();
  detail::pipe_pair errors = detail::make_pipe();
  plan->stdin_fd = dev_null.get();
  plan->stdout_fd = out.write_end.get();
  plan->stderr_fd = err.write_end.get();
  plan->error_fd = errors.write_end.get();
  detail::point_arrays(*plan);

  const auto start = steady::now();
  const pid_t pid = fork();
  if (pid < 0) {
    CUGRADE_THROW(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    detail::exec_child(*plan);
  }
  setpgid(pid, pid); // the child does the same; whichever runs first, a kill of -pid works
  out.write_end.reset();
  err.write_end.reset();
  errors.write_end.reset();

  const auto failure = read_child_failure(errors.read_end.get());
  detail::output_stream out_stream{std::move(out.read_end),
                                   detail::capped_output(options.capture_limit_bytes)};
  detail::output_stream err_stream{std::move(err.read_end),
                                   detail::capped_output(options.capture_limit_bytes)};
  const auto deadline = deadline_of(options, start);
  const detail::child_exit exit = detail::supervise(
      pid, deadline, out_stream, err_stream,
      std::chrono::milliseconds(static_cast<long long>(options.stop_grace_seconds * 1000)));
  if (failure) {
    return start_failure(options, *failure);
  }
  return to_result(exit, out_stream, err_stream, start);
}

void limit_clock::start() noexcept {
  steady::rep expected = 0;
  const steady::rep now = std::max<steady::rep>(steady::now().time_since_epoch().count(), 1);
  m_started.compare_exchange_strong(expected, now);
}

std::optional<steady::time_point> limit_clock::started() const noexcept {
  const steady::rep at = m_started.load();
  if (at == 0) {
    return std::nullopt;
  }
  return steady::time_point(steady::duration(at));
}

int process_result::shell_status() const {
  return term_signal != 0 ? 128 + term_signal : exit_code;
}

bool process_result::succeeded() const {
  return !timed_out && term_signal == 0 && exit_code == 0;
}

} // namespace cugrade::process
