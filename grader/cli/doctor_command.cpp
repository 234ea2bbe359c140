#include "grader/cli/commands.h"

#include "grader/core/backend_choice.h"
#include "grader/layout/layout.h"
#include "grader/process/process.h"
#include "grader/sandbox/sandbox.h"

#include <git2.h>
#include <iostream>
#include <sstream>

namespace cugrade::cli {

namespace {

struct check_line {
  bool ok;
  std::string what;
  std::string detail;
  std::string fix;
};

void print(const check_line& c) {
  std::cout << (c.ok ? "  ok       " : "  missing  ") << c.what << ": " << c.detail << "\n";
  if (!c.ok && !c.fix.empty()) {
    std::cout << "           fix: " << c.fix << "\n";
  }
}

std::string first_line_of_run(const std::vector<std::string>& argv, std::string_view contains) {
  process::spawn_options opts;
  opts.argv = argv;
  opts.time_limit_seconds = 30;
  const auto r = process::run_process(opts);
  if (!r || !r->succeeded()) {
    return "";
  }
  std::istringstream lines(r->stdout_text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find(contains) != std::string::npos) {
      return line;
    }
  }
  return "";
}

check_line nvcc_line() {
  const auto nvcc = grader::find_nvcc();
  if (!nvcc) {
    return {false, "nvcc", "not found", "install the CUDA toolkit (needed for the GPU backend)"};
  }
  const auto version = first_line_of_run({nvcc->string(), "--version"}, "release");
  return {true, "nvcc", nvcc->string() + (version.empty() ? "" : " (" + version + ")"), ""};
}

check_line gpu_line(const grader::layout& l) {
  const auto gpu = grader::probe_gpu(l, {});
  if (!gpu) {
    return {false, "GPU", gpu.error(),
            "grading still works in CPU emulation; for GPU timing use a machine with an NVIDIA "
            "GPU and driver"};
  }
  return {true, "GPU", gpu->device + ", driver " + gpu->driver + ", CUDA runtime " + gpu->runtime,
          ""};
}

check_line emulation_line(const grader::layout& l) {
  const bool runner = std::filesystem::exists(l.runner("emu"));
  const bool library = std::filesystem::exists(l.lib_dir / "libcugrade_emu.so");
  const auto cxx = process::find_program("g++");
  const bool ok = runner && library && cxx.has_value();
  return {ok, "CPU emulation",
          ok ? "runner, libcugrade_emu.so and g++ present"
             : std::string(!runner ? "no emulation runner; " : "") +
                   (!library ? "no libcugrade_emu.so; " : "") + (!cxx ? "no g++" : ""),
          "rebuild cugrade (scripts/setup) and install g++ (apt-get install g++)"};
}

check_line tool_line(const std::string& name, const std::string& why, const std::string& fix) {
  const auto p = process::find_program(name);
  return {p.has_value(), name, p ? p->string() + " (" + why + ")" : "not found (" + why + ")", fix};
}

check_line sandbox_line() {
  const auto& found = sandbox::probe();
  if (!found.works) {
    return {false, "sandbox", found.problem + "; grade and batch refuse to run student code",
            found.fix};
  }
  return {true, "sandbox",
          found.version + " at " + found.bwrap.string() +
              " (namespaces, uid 65534, seccomp; student code is confined)",
          ""};
}

// A memory hog should meet a ceiling of its own run, not the machine's limits or its time limit.
check_line memory_ceiling_line() {
  const auto kind = sandbox::memory_ceiling_kind();
  if (kind.empty()) {
    return {false, "memory ceiling",
            "none: no writable cgroup memory controller, so compilers and emulation runners get "
            "RLIMIT_AS and GPU runners have no host-memory ceiling (a hog runs until its time "
            "limit)",
            "run cugrade in a cgroup that delegates the memory controller (cgroup v2, e.g. "
            "systemd-run -p Delegate=yes), or as root with a writable /sys/fs/cgroup"};
  }
  return {true, "memory ceiling",
          kind + ", one cgroup per confined run (its ceilings: docs/sandbox.md)",
          ""};
}

int run_doctor() {
  const auto layout = grader::discover_layout();
  std::cout << "cugrade " << CUGRADE_VERSION << "\n";
  if (!layout) {
    std::cout << "  missing  data: " << layout.error() << "\n";
    return exit_infrastructure;
  }
  std::cout << "  data     " << layout->root.string() << "\n";
  int major = 0;
  int minor = 0;
  int rev = 0;
  git_libgit2_version(&major, &minor, &rev);
  const std::vector<check_line> lines{
      nvcc_line(),
      gpu_line(*layout),
      emulation_line(*layout),
      {true, "git",
       "libgit2 " + std::to_string(major) + "." + std::to_string(minor) + "." +
           std::to_string(rev) + " (built in; no git program needed)",
       ""},
      sandbox_line(),
      memory_ceiling_line(),
      tool_line("nm", "symbol policy", "apt-get install binutils"),
      tool_line("addr2line", "source lines of faults", "apt-get install binutils"),
  };
  bool can_grade = false;
  for (const auto& c : lines) {
    print(c);
    can_grade = can_grade || ((c.what == "CPU emulation" || c.what == "GPU") && c.ok);
  }
  can_grade = can_grade && sandbox::probe().works;
  std::cout << (can_grade ? "cugrade can grade on this machine.\n"
                          : "cugrade cannot grade here yet: fix the lines above.\n");
  return can_grade ? exit_ok : exit_infrastructure;
}

} // namespace

command doctor_command() {
  return {"doctor",
          "Say what this machine can do (nvcc, GPU and driver, emulation, the sandbox, git) and "
          "what to install for what is missing",
          [](CLI::App&) -> std::function<int()> { return run_doctor; }};
}

} // namespace cugrade::cli
