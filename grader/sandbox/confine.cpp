// Turning a spawn into a confined spawn: bwrap's argv in front of the program, the seccomp
// program's descriptor passed on, a clean environment, and the run's own cgroup.

#include "grader/sandbox/detail/bwrap_args.h"
#include "grader/sandbox/detail/memory_ceiling.h"
#include "grader/sandbox/detail/seccomp_program.h"
#include "grader/sandbox/sandbox.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace cugrade::sandbox {
namespace {

namespace fs = std::filesystem;
using variables = std::vector<std::pair<std::string, std::string>>;

std::vector<fs::path> split_path_list(const char* text) {
  std::vector<fs::path> dirs;
  std::istringstream list(text == nullptr ? "" : text);
  std::string dir;
  while (std::getline(list, dir, ':')) {
    if (!dir.empty() && dir.front() == '/' && fs::is_directory(dir)) {
      dirs.emplace_back(dir);
    }
  }
  return dirs;
}

void set_variable(variables& env, const std::string& name, const std::string& value) {
  std::erase_if(env, [&](const auto& entry) { return entry.first == name; });
  env.emplace_back(name, value);
}

// Nothing of the grader's environment crosses except what the run needs: a fixed PATH and
// locale, the library path of a relocated install (a device bundle), the emulator's thread
// count, the GPU choice, and the caller's own variables.
variables sandbox_environment(const profile& p, const process::spawn_options& options) {
  variables env{{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", "/tmp"}, {"LC_ALL", "C"}};
  // CUGRADE_EMU_WORKERS: the emulator's thread count, which a batch sets to 1 so that a grading
  // (the order of atomic adds, the block a fault names) is the same in every run.
  for (const char* name : {"LD_LIBRARY_PATH", "CUGRADE_EMU_WORKERS", "CUDA_VISIBLE_DEVICES"}) {
    const bool wanted = std::string(name) != "CUDA_VISIBLE_DEVICES" || p.kind == role::gpu_runner ||
                        p.kind == role::gpu_wrapper;
    if (const char* value = std::getenv(name); wanted && value != nullptr) {
      set_variable(env, name, value);
    }
  }
  for (const auto& name : options.env_keep) {
    if (const char* value = std::getenv(name.c_str()); options.clear_env && value != nullptr) {
      set_variable(env, name, value);
    }
  }
  for (const auto& [name, value] : options.env_add) {
    set_variable(env, name, value);
  }
  // Inside, the runner sees one device node, so the driver numbers that GPU 0: the host's index
  // (1 for a machine's second GPU) would name no device ("no NVIDIA GPU found").
  if (p.kind == role::gpu_runner || p.kind == role::gpu_wrapper) {
    for (auto& [name, value] : env) {
      if (name == "CUDA_VISIBLE_DEVICES" && !value.empty() &&
          value.find_first_not_of("0123456789") == std::string::npos) {
        value = "0";
      }
    }
  }
  return env;
}

// The one GPU a runner may open: CUDA_VISIBLE_DEVICES when it names a single device by number
// (the device node's minor number must match: docs/sandbox.md), else the profile's. The run's
// own setting (a batch pins each grading to one GPU) comes before the grader's.
int chosen_gpu(int fallback, const process::spawn_options& options) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  for (const auto& [name, value] : options.env_add) {
    if (name == "CUDA_VISIBLE_DEVICES") {
      visible = value.c_str();
    }
  }
  if (visible == nullptr || *visible == '\0') {
    return fallback;
  }
  char* end = nullptr;
  const long index = std::strtol(visible, &end, 10);
  return *end == '\0' && index >= 0 && index < 64 ? static_cast<int>(index) : fallback;
}

// The program, its folder and the library path's folders must be visible inside.
result<profile> complete_profile(profile p, const process::spawn_options& options,
                                 std::string& program) {
  const auto found = process::find_program(options.argv.front());
  if (!found) {
    return fail("cannot start " + options.argv.front() + ": not found on PATH");
  }
  program = fs::absolute(*found).string();
  p.read_only.push_back(fs::path(program).parent_path());
  std::error_code error;
  const fs::path real = fs::canonical(program, error); // a symlinked program: its target too
  if (!error && real.parent_path() != fs::path(program).parent_path()) {
    p.read_only.push_back(real.parent_path());
  }
  for (const auto& dir : split_path_list(std::getenv("LD_LIBRARY_PATH"))) {
    p.read_only.push_back(dir);
  }
  p.gpu_index = chosen_gpu(p.gpu_index, options);
  return p;
}

void fall_back_to_address_limit(const profile& p, process::spawn_options& options) {
  // The CUDA driver reserves far more address space than it uses: a GPU runner gets none.
  if (p.kind == role::gpu_runner || p.kind == role::gpu_wrapper) {
    return;
  }
  options.address_space_bytes =
      std::min(options.address_space_bytes.value_or(p.memory_bytes), p.memory_bytes);
}

} // namespace

std::string memory_ceiling_kind() {
  const auto trial = memory_ceiling::create(std::size_t{64} << 20, 16);
  return trial ? trial->kind() : std::string();
}

confinement::confinement() = default;
confinement::confinement(confinement&& other) noexcept
    : m_seccomp_fd(std::exchange(other.m_seccomp_fd, -1)), m_ceiling(std::move(other.m_ceiling)) {}
confinement& confinement::operator=(confinement&& other) noexcept {
  if (this != &other) {
    if (m_seccomp_fd >= 0) {
      ::close(m_seccomp_fd);
    }
    m_seccomp_fd = std::exchange(other.m_seccomp_fd, -1);
    m_ceiling = std::move(other.m_ceiling);
  }
  return *this;
}
confinement::~confinement() {
  if (m_seccomp_fd >= 0) {
    ::close(m_seccomp_fd);
  }
}

bool confinement::memory_exhausted() const {
  return m_ceiling != nullptr && m_ceiling->exhausted();
}

std::string confinement::ceiling_kind() const {
  if (m_ceiling != nullptr) {
    return m_ceiling->kind();
  }
  return m_seccomp_fd >= 0 ? "address-space limit" : "none";
}

namespace detail {

result<confinement> confine_with(const availability& found, const profile& requested,
                                 process::spawn_options& options) {
  if (options.argv.empty()) {
    return fail("cannot confine a process: spawn_options.argv is empty");
  }
  std::string program;
  auto view = complete_profile(requested, options, program);
  if (!view) {
    return fail(view.error());
  }
  auto seccomp = seccomp_program(view->kind);
  if (!seccomp) {
    return fail(seccomp.error());
  }
  confinement box;
  box.m_seccomp_fd = *seccomp;
  // A tool cannot fork (its seccomp filter), so its address-space limit bounds it as well as a
  // cgroup would, without the cgroup's cost: each move into a cgroup v1 waits for an RCU grace
  // period (5 to 20 ms per cgroup.procs write on the CI machines: docs/sandbox.md, Overhead).
  if (view->kind != role::tool) {
    box.m_ceiling = memory_ceiling::create(view->memory_bytes, view->max_pids);
  }
  if (box.m_ceiling) {
    options.cgroup_procs_files = box.m_ceiling->procs_files();
  } else {
    fall_back_to_address_limit(*view, options);
  }
  const bwrap_call call{found.bwrap, *view, sandbox_environment(*view, options),
                        options.working_dir, box.m_seccomp_fd};
  std::vector<std::string> argv = bwrap_argv(call);
  argv.push_back(program);
  argv.insert(argv.end(), options.argv.begin() + 1, options.argv.end());
  options.argv = std::move(argv);
  options.working_dir = "/";
  options.clear_env = true;
  options.env_keep = {"LD_LIBRARY_PATH"}; // for a bwrap relocated with its libraries
  options.env_add.clear();
  options.inherit_fds.push_back(box.m_seccomp_fd);
  return box;
}

} // namespace detail

result<confinement> confine(const profile& p, process::spawn_options& options) {
  if (current_mode() == mode::unconfined) {
    return confinement{};
  }
  const availability& found = probe();
  if (!found.works) {
    return fail("cannot confine " +
                (options.argv.empty() ? std::string("a process") : options.argv.front()) + ": " +
                found.problem + ". To fix: " + found.fix);
  }
  return detail::confine_with(found, p, options);
}

} // namespace cugrade::sandbox
