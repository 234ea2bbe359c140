#include "grader/sandbox/detail/seccomp_program.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

namespace cugrade::sandbox::detail {
namespace {

using context = std::unique_ptr<void, decltype(&seccomp_release)>;

// Course code never needs these: tracing or reading other processes, mounting, kernel keys,
// BPF, performance counters, namespaces, modules, or the machine's own controls.
constexpr const char* denied_everywhere[] = {"process_vm_readv",
                                             "process_vm_writev",
                                             "mount",
                                             "umount2",
                                             "pivot_root",
                                             "chroot",
                                             "keyctl",
                                             "add_key",
                                             "request_key",
                                             "bpf",
                                             "perf_event_open",
                                             "unshare",
                                             "setns",
                                             "kexec_load",
                                             "kexec_file_load",
                                             "init_module",
                                             "finit_module",
                                             "delete_module",
                                             "reboot",
                                             "swapon",
                                             "swapoff",
                                             "acct",
                                             "open_by_handle_at",
                                             "name_to_handle_at",
                                             "userfaultfd",
                                             "syslog",
                                             "quotactl",
                                             "fsopen",
                                             "fsmount",
                                             "fsconfig",
                                             "move_mount",
                                             "open_tree",
                                             "lookup_dcookie",
                                             "iopl",
                                             "ioperm",
                                             "settimeofday",
                                             "clock_settime",
                                             "adjtimex",
                                             "clock_adjtime"};

// New processes: runners and nm only ever need threads (the CUDA driver and the emulator make
// them); a fork from student code is a daemon or a fork bomb.
constexpr const char* process_calls[] = {"fork", "vfork"};

// libseccomp's SCMP_A0 is a C compound literal; C++ spells the comparison out.
scmp_arg_cmp first_argument(scmp_compare op, std::uint64_t a, std::uint64_t b = 0) {
  return scmp_arg_cmp{0, op, a, b};
}

result<void> rule(scmp_filter_ctx ctx, std::uint32_t action, const char* name, unsigned count = 0,
                  const scmp_arg_cmp* conditions = nullptr) {
  const int number = seccomp_syscall_resolve_name(name);
  if (number == __NR_SCMP_ERROR) {
    return {}; // not a system call on this architecture
  }
  const int rc = seccomp_rule_add_array(ctx, action, number, count, conditions);
  if (rc != 0) {
    return fail(std::string("cannot add the seccomp rule for ") + name + ": " + std::strerror(-rc));
  }
  return {};
}

// mknod(path, mode, dev) and mknodat(dirfd, path, mode, dev): which argument holds the mode.
constexpr std::pair<const char*, unsigned> node_calls[] = {{"mknod", 1}, {"mknodat", 2}};

// New file-system nodes: none, except that compute-sanitizer talks to the runner it launched
// through named pipes it makes under /tmp (mkfifo is mknod with S_IFIFO), so a wrapper may make
// FIFOs. Device nodes stay refused for every role.
result<void> node_rules(scmp_filter_ctx ctx, role kind) {
  const std::uint32_t deny = SCMP_ACT_ERRNO(EPERM);
  for (const auto& [name, mode_arg] : node_calls) {
    if (kind != role::gpu_wrapper) {
      if (auto r = rule(ctx, deny, name); !r) {
        return r;
      }
      continue;
    }
    for (const mode_t type : {S_IFCHR, S_IFBLK}) {
      const scmp_arg_cmp device{mode_arg, SCMP_CMP_MASKED_EQ, S_IFMT, type};
      if (auto r = rule(ctx, deny, name, 1, &device); !r) {
        return r;
      }
    }
  }
  return {};
}

result<void> add_rules(scmp_filter_ctx ctx, role kind) {
  const std::uint32_t deny = SCMP_ACT_ERRNO(EPERM);
  for (const char* name : denied_everywhere) {
    if (auto r = rule(ctx, deny, name); !r) {
      return r;
    }
  }
  if (auto r = node_rules(ctx, kind); !r) {
    return r;
  }
  // ptrace only for the profiling/sanitizer wrappers, which trace their own child.
  if (kind != role::gpu_wrapper) {
    if (auto r = rule(ctx, deny, "ptrace"); !r) {
      return r;
    }
  }
  // Sockets: AF_UNIX only (the network namespace has no route out anyway).
  const scmp_arg_cmp not_unix = first_argument(SCMP_CMP_NE, AF_UNIX);
  if (auto r = rule(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), "socket", 1, &not_unix); !r) {
    return r;
  }
  // clone3 hides its flags in memory a filter cannot read: ENOSYS makes glibc fall back to clone,
  // whose flags can be checked.
  if (auto r = rule(ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3"); !r) {
    return r;
  }
  const scmp_arg_cmp new_user = first_argument(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER);
  if (auto r = rule(ctx, deny, "clone", 1, &new_user); !r) {
    return r;
  }
  // personality(0xffffffff) only asks; changing it (e.g. ADDR_NO_RANDOMIZE) is refused.
  const scmp_arg_cmp changes = first_argument(SCMP_CMP_NE, 0xffffffffu);
  if (auto r = rule(ctx, deny, "personality", 1, &changes); !r) {
    return r;
  }
  if (!may_fork(kind)) {
    for (const char* name : process_calls) {
      if (auto r = rule(ctx, deny, name); !r) {
        return r;
      }
    }
    const scmp_arg_cmp not_thread = first_argument(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
    if (auto r = rule(ctx, deny, "clone", 1, &not_thread); !r) {
      return r;
    }
  }
  return {};
}

result<int> export_program(scmp_filter_ctx ctx) {
  const int fd = memfd_create("cugrade-seccomp", 0);
  if (fd < 0) {
    return fail(std::string("cannot create the seccomp program's memfd: ") + std::strerror(errno));
  }
  const int rc = seccomp_export_bpf(ctx, fd);
  if (rc != 0 || lseek(fd, 0, SEEK_SET) != 0) {
    close(fd);
    return fail(std::string("cannot export the seccomp program: ") + std::strerror(-rc));
  }
  return fd;
}

} // namespace

bool may_fork(role kind) noexcept {
  return kind == role::compiler || kind == role::gpu_wrapper;
}

result<int> seccomp_program(role kind) {
  // Anything else is allowed; a system call of another architecture (int 0x80) kills.
  const context ctx(seccomp_init(SCMP_ACT_ALLOW), &seccomp_release);
  if (!ctx) {
    return fail("cannot initialise libseccomp");
  }
  if (auto added = add_rules(ctx.get(), kind); !added) {
    return fail(added.error());
  }
  return export_program(ctx.get());
}

} // namespace cugrade::sandbox::detail
