#include "harness/runner/refuse_tracing.h"

#include <seccomp.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace cugrade::runner {

std::string refuse_tracing() {
  const std::unique_ptr<void, decltype(&seccomp_release)> ctx(seccomp_init(SCMP_ACT_ALLOW),
                                                              &seccomp_release);
  if (!ctx) {
    return "seccomp_init failed";
  }
  for (const char* name : {"ptrace", "process_vm_readv", "process_vm_writev"}) {
    const int call = seccomp_syscall_resolve_name(name);
    if (call == __NR_SCMP_ERROR) {
      return std::string("no system call named ") + name;
    }
    if (const int r = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(EPERM), call, 0); r != 0) {
      return std::string("cannot refuse ") + name + ": " + std::strerror(-r);
    }
  }
  // Sets no_new_privs first (the default of SCMP_FLTATR_CTL_NNP), as an unprivileged process
  // must; under bwrap it is set already.
  if (const int r = seccomp_load(ctx.get()); r != 0) {
    return std::string("cannot load the filter: ") + std::strerror(-r);
  }
  return {};
}

} // namespace cugrade::runner
