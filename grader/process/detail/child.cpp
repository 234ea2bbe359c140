// The forked child's side of run_process. Everything here must be async-signal-safe: the grader
// may have other threads, whose locks were copied mid-use by fork. No allocation, no exceptions,
// no stdio; failures travel to the parent as a child_failure record over the error pipe.

#include "grader/process/detail/exec_plan.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <limits>

namespace cugrade::process::detail {
namespace {

[[noreturn]] void report_and_exit(const exec_plan& plan, child_stage stage) noexcept {
  const child_failure failure{stage, errno};
  ssize_t written = 0;
  do {
    written = write(plan.error_fd, &failure, sizeof failure);
  } while (written < 0 && errno == EINTR);
  _exit(127);
}

// Handlers do not survive exec but ignored signals and the blocked mask do; a runner that
// inherited an ignored SIGPIPE or a blocked SIGTERM would behave unlike the student's own machine.
bool reset_signals() noexcept {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) {
      sigaction(sig, &default_action, nullptr); // glibc-reserved numbers fail harmlessly
    }
  }
  sigset_t none;
  sigemptyset(&none);
  return sigprocmask(SIG_SETMASK, &none, nullptr) == 0;
}

bool redirect(const exec_plan& plan) noexcept {
  return dup2(plan.stdin_fd, STDIN_FILENO) >= 0 && dup2(plan.stdout_fd, STDOUT_FILENO) >= 0 &&
         dup2(plan.stderr_fd, STDERR_FILENO) >= 0;
}

bool mark_close_on_exec(unsigned int first, unsigned int last, unsigned int ceiling) noexcept {
  if (first > last) {
    return true;
  }
  if (close_range(first, last, CLOSE_RANGE_CLOEXEC) == 0) {
    return true;
  }
  // Kernels before 5.11: sweep the descriptor table one number at a time.
  for (unsigned int fd = first; fd <= last && fd < ceiling; ++fd) {
    const int flags = fcntl(static_cast<int>(fd), F_GETFD);
    if (flags >= 0 && fcntl(static_cast<int>(fd), F_SETFD, flags | FD_CLOEXEC) < 0) {
      return false;
    }
  }
  return true;
}

// Every descriptor above 2 closes at exec except the ones the caller asked to pass on.
bool limit_descriptors(const exec_plan& plan) noexcept {
  unsigned int next = 3;
  for (const int fd : plan.keep_fds) {
    if (fcntl(fd, F_SETFD, 0) < 0 ||
        !mark_close_on_exec(next, static_cast<unsigned int>(fd) - 1, plan.fd_ceiling)) {
      return false;
    }
    next = static_cast<unsigned int>(fd) + 1;
  }
  return mark_close_on_exec(next, std::numeric_limits<unsigned int>::max(), plan.fd_ceiling);
}

bool apply_limits(const exec_plan& plan) noexcept {
  for (const resource_limit& limit : plan.limits) {
    if (setrlimit(limit.resource, &limit.value) != 0) {
      return false;
    }
  }
  return true;
}

// "0" names the writing process itself, in cgroup v1 and v2 alike.
bool join_cgroups(const exec_plan& plan) noexcept {
  for (const int fd : plan.cgroup_fds) {
    if (write(fd, "0", 1) != 1) {
      return false;
    }
  }
  return true;
}

} // namespace

void exec_child(const exec_plan& plan) noexcept {
  if (!reset_signals()) {
    report_and_exit(plan, child_stage::signals);
  }
  if (setpgid(0, 0) != 0) {
    report_and_exit(plan, child_stage::process_group);
  }
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
    report_and_exit(plan, child_stage::death_signal);
  }
  if (getppid() != plan.parent_pid) {
    _exit(127); // the grader died before the death signal was armed; nobody is listening
  }
  if (!redirect(plan)) {
    report_and_exit(plan, child_stage::redirect);
  }
  if (!limit_descriptors(plan)) {
    report_and_exit(plan, child_stage::descriptors);
  }
  if (!plan.working_dir.empty() && chdir(plan.working_dir.c_str()) != 0) {
    report_and_exit(plan, child_stage::chdir);
  }
  if (!apply_limits(plan)) {
    report_and_exit(plan, child_stage::limits);
  }
  if (!join_cgroups(plan)) {
    report_and_exit(plan, child_stage::cgroup);
  }
  execve(plan.program.c_str(), plan.argv.data(), plan.envp.data());
  report_and_exit(plan, child_stage::exec);
}

} // namespace cugrade::process::detail
