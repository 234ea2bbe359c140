// The runner's own filter (harness/runner/refuse_tracing.h), installed in a child process: the
// filter cannot be taken off again. The calls aim at a process that does not exist, so without
// the filter they fail with ESRCH (and a broken filter cannot stop the test process itself).

#include "harness/runner/refuse_tracing.h"

#include <cerrno>
#include <gtest/gtest.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace cugrade::runner {
namespace {

constexpr pid_t nobody = 0x3ffffff0; // above any pid_max

// The errno of ptrace(PTRACE_ATTACH) and of process_vm_readv at `nobody`, as an exit status:
// 10 + errno of the first, or 100 + errno of the second when the first gave EPERM.
int child_probe(bool filtered) {
  if (filtered && !refuse_tracing().empty()) {
    return 1;
  }
  std::thread([] {}).join(); // threads still work
  errno = 0;
  if (::syscall(SYS_ptrace, PTRACE_ATTACH, nobody, 0, 0) != -1 || errno != EPERM) {
    return 10 + errno;
  }
  char byte = 0;
  iovec local{&byte, 1};
  iovec remote{&byte, 1};
  errno = 0;
  (void)::process_vm_readv(nobody, &local, 1, &remote, 1, 0);
  return 100 + errno;
}

int exit_status_of(bool filtered) {
  const pid_t child = ::fork();
  if (child == 0) {
    ::_exit(child_probe(filtered));
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(RefuseTracing, RefusesPtraceAndProcessVmInTheProcessAndItsThreads) {
  EXPECT_EQ(exit_status_of(true), 100 + EPERM);
}

TEST(RefuseTracing, WithoutItTheSameCallsReachTheKernel) {
  EXPECT_EQ(exit_status_of(false), 10 + ESRCH);
}

} // namespace
} // namespace cugrade::runner
