#pragma once
/// \file
/// Everything the child needs between fork and exec, prepared before forking: in a forked copy of
/// a multi-threaded grader only async-signal-safe calls are allowed, so no allocation, no
/// exceptions, no locks happen there.

#include "grader/process/process.h"
#include "grader/process/detail/unique_fd.h"

#include <sys/resource.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace cugrade::process::detail {

/// One setrlimit call to make in the child.
struct resource_limit {
  int resource;
  rlimit value;
};

/// The step of child setup that failed, sent to the parent with errno over the error pipe.
enum class child_stage : int {
  signals,
  process_group,
  death_signal,
  redirect,
  descriptors,
  chdir,
  limits,
  cgroup,
  exec
};

/// The record a failing child writes to the close-on-exec error pipe.
struct child_failure {
  child_stage stage;
  int error_number;
};

/// Arrays and numbers the child uses; `argv` and `envp` point into the storage vectors.
struct exec_plan {
  std::string program; // resolved path handed to execve
  std::vector<std::string> argv_storage;
  std::vector<std::string> env_storage;
  std::vector<char*> argv; // null-terminated
  std::vector<char*> envp; // null-terminated
  std::string working_dir; // empty: stay where the grader is
  std::vector<resource_limit> limits;
  std::vector<int> keep_fds;   // sorted, all >= 3
  std::vector<int> cgroup_fds; // open cgroup.procs files (close-on-exec); the child writes "0"
  std::vector<unique_fd> cgroup_files; // owns cgroup_fds
  unsigned int fd_ceiling = 0; // highest descriptor number to sweep when close_range is missing
  pid_t parent_pid = 0;
  // Descriptors that become the child's 0, 1, 2, and the error pipe's write end.
  int stdin_fd = -1;
  int stdout_fd = -1;
  int stderr_fd = -1;
  int error_fd = -1;
};

/// Resolves the program and builds argv, the environment and the limits. Fails when argv is
/// empty or the program is not found; throws on inherit_fds below 3 (a caller's bug).
/// A cgroup.procs file that cannot be opened is a failure naming it.
[[nodiscard]] result<exec_plan> make_exec_plan(const spawn_options& options);

/// Points argv and envp into the storage; call once the plan has reached its final address.
void point_arrays(exec_plan& plan);

/// Runs in the forked child: sets up the process and execs, or reports why not and _exits(127).
[[noreturn]] void exec_child(const exec_plan& plan) noexcept;

/// Words for a child_stage in an error message, e.g. "changing to the working directory".
[[nodiscard]] const char* describe(child_stage stage) noexcept;

} // namespace cugrade::process::detail
