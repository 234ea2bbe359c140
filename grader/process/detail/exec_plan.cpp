#include "grader/process/detail/exec_plan.h"

#include "harness/core/error.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>

extern char** environ;

namespace cugrade::process::detail {
namespace {

std::string_view name_of(std::string_view entry) {
  return entry.substr(0, entry.find('='));
}

std::vector<std::string> inherited_environment(const spawn_options& options) {
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text = *entry;
    const bool kept = std::find(options.env_keep.begin(), options.env_keep.end(), name_of(text)) !=
                      options.env_keep.end();
    if (!options.clear_env || kept) {
      env.emplace_back(text);
    }
  }
  return env;
}

std::vector<std::string> child_environment(const spawn_options& options) {
  std::vector<std::string> env = inherited_environment(options);
  for (const auto& [name, value] : options.env_add) {
    std::erase_if(env, [&](const std::string& entry) { return name_of(entry) == name; });
    env.push_back(name + "=" + value);
  }
  return env;
}

rlimit both(rlim_t value) {
  return rlimit{value, value};
}

std::vector<resource_limit> child_limits(const spawn_options& options) {
  std::vector<resource_limit> limits{{RLIMIT_CORE, both(0)}};
  if (options.cpu_time_limit_seconds) {
    // The soft limit sends SIGXCPU; the hard limit one second later is a certain SIGKILL.
    const auto soft =
        static_cast<rlim_t>(std::ceil(std::max(*options.cpu_time_limit_seconds, 1.0)));
    limits.push_back({RLIMIT_CPU, rlimit{soft, soft + 1}});
  }
  if (options.address_space_bytes) {
    limits.push_back({RLIMIT_AS, both(*options.address_space_bytes)});
  }
  if (options.file_size_bytes) {
    limits.push_back({RLIMIT_FSIZE, both(*options.file_size_bytes)});
  }
  if (options.max_processes) {
    limits.push_back({RLIMIT_NPROC, both(static_cast<rlim_t>(*options.max_processes))});
  }
  return limits;
}

std::vector<int> kept_descriptors(const spawn_options& options) {
  std::vector<int> fds = options.inherit_fds;
  for (const int fd : fds) {
    if (fd < 3) {
      CUGRADE_THROW("spawn_options.inherit_fds: descriptor " + std::to_string(fd) +
                    " is one of stdin/stdout/stderr, which the runner always redirects");
    }
    if (fcntl(fd, F_GETFD) < 0) {
      CUGRADE_THROW("spawn_options.inherit_fds: descriptor " + std::to_string(fd) + " is not open");
    }
  }
  std::sort(fds.begin(), fds.end());
  fds.erase(std::unique(fds.begin(), fds.end()), fds.end());
  return fds;
}

unsigned int descriptor_ceiling() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
    return 65536;
  }
  return static_cast<unsigned int>(std::min<rlim_t>(limit.rlim_cur, 1u << 20));
}

std::vector<char*> pointers_into(std::vector<std::string>& storage) {
  std::vector<char*> pointers;
  for (std::string& entry : storage) {
    pointers.push_back(entry.data());
  }
  pointers.push_back(nullptr);
  return pointers;
}

result<void> open_cgroups(const spawn_options& options, exec_plan& plan) {
  for (const auto& file : options.cgroup_procs_files) {
    unique_fd fd(::open(file.c_str(), O_WRONLY | O_CLOEXEC));
    if (!fd.valid()) {
      return fail("cannot join the cgroup " + file.parent_path().string() + ": " +
                  std::strerror(errno));
    }
    plan.cgroup_fds.push_back(fd.get());
    plan.cgroup_files.push_back(std::move(fd));
  }
  return {};
}

} // namespace

result<exec_plan> make_exec_plan(const spawn_options& options) {
  if (options.argv.empty() || options.argv.front().empty()) {
    return fail("cannot start a process: spawn_options.argv is empty (name the program first)");
  }
  const std::string& name = options.argv.front();
  exec_plan plan;
  if (name.find('/') != std::string::npos) {
    plan.program = name; // execve reports a missing or non-executable file with its own errno
  } else if (const auto program = find_program(name)) {
    plan.program = program->string();
  } else {
    return fail("cannot start " + name + ": " + std::strerror(ENOENT) + " (not found on PATH)");
  }
  plan.argv_storage = options.argv;
  plan.env_storage = child_environment(options);
  plan.working_dir = options.working_dir.string();
  plan.limits = child_limits(options);
  plan.keep_fds = kept_descriptors(options);
  plan.fd_ceiling = descriptor_ceiling();
  plan.parent_pid = getpid();
  if (auto joined = open_cgroups(options, plan); !joined) {
    return fail(joined.error());
  }
  return plan;
}

void point_arrays(exec_plan& plan) {
  plan.argv = pointers_into(plan.argv_storage);
  plan.envp = pointers_into(plan.env_storage);
}

const char* describe(child_stage stage) noexcept {
  switch (stage) {
  case child_stage::signals:
    return "resetting signal handling";
  case child_stage::process_group:
    return "creating its process group";
  case child_stage::death_signal:
    return "arranging to die with the grader";
  case child_stage::redirect:
    return "redirecting stdin/stdout/stderr";
  case child_stage::descriptors:
    return "closing inherited descriptors";
  case child_stage::chdir:
    return "changing to the working directory";
  case child_stage::limits:
    return "setting resource limits";
  case child_stage::cgroup:
    return "joining its cgroup";
  case child_stage::exec:
    return "executing the program";
  }
  return "preparing the process";
}

} // namespace cugrade::process::detail
