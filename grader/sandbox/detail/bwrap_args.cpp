#include "grader/sandbox/detail/bwrap_args.h"

#include <algorithm>
#include <system_error>

namespace cugrade::sandbox::detail {
namespace {

namespace fs = std::filesystem;
using args = std::vector<std::string>;

void add(args& out, std::initializer_list<std::string> words) {
  out.insert(out.end(), words);
}

// The system toolchain and libraries, read-only. /bin, /lib... are symlinks into /usr on merged
// systems (Debian 12, Ubuntu 24.04) and directories on older ones; both are reproduced.
void system_mounts(args& out) {
  add(out, {"--ro-bind", "/usr", "/usr"});
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    std::error_code error;
    const auto status = fs::symlink_status(top, error);
    if (error || !fs::exists(status)) {
      continue;
    }
    if (fs::is_symlink(status)) {
      add(out, {"--symlink", fs::read_symlink(top, error).string(), top});
    } else {
      add(out, {"--ro-bind", top, top});
    }
  }
  // From /etc only what the dynamic loader and the compilers' alternatives need: no passwd,
  // no hosts, nothing of the machine's configuration.
  for (const char* file :
       {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"}) {
    add(out, {"--ro-bind-try", file, file});
  }
}

void namespaces(args& out) {
  add(out, {"--unshare-all", "--unshare-user", "--disable-userns", "--uid",
            std::to_string(sandbox_uid), "--gid", std::to_string(sandbox_gid), "--hostname",
            "cugrade", "--die-with-parent", "--new-session", "--cap-drop", "ALL"});
}

void scratch(args& out) {
  add(out, {"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", "/run"});
}

// CUDA needs exactly these nodes, bound as devices (a plain --bind gives NVML permission
// errors), and the driver's entries under /sys (read-only), or initialisation fails (error 304).
void gpu_access(args& out, int gpu_index) {
  const std::vector<std::string> nodes{"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
                                       "/dev/nvidia" + std::to_string(gpu_index)};
  for (const auto& node : nodes) {
    add(out, {"--dev-bind-try", node, node});
  }
  add(out, {"--ro-bind", "/sys", "/sys"});
  add(out, {"--ro-bind-try", "/run/nvidia-persistenced", "/run/nvidia-persistenced"});
}

struct mount_entry {
  fs::path host;
  fs::path inside;
  const char* option;
};

std::size_t depth(const fs::path& p) {
  return static_cast<std::size_t>(std::distance(p.begin(), p.end()));
}

// Each path at its canonical place and, when the caller named it through a symlink, at the
// name it used too, so argv and library paths work unchanged inside.
// Under /usr everything is visible read-only already, symlinks included (the CUDA toolkit's
// /usr/local/cuda -> /etc/alternatives/cuda -> /usr/local/cuda-13.0): binding there again would
// mount onto a symlink.
bool under_usr(const fs::path& p) {
  const auto first = std::next(p.begin());
  return p.is_absolute() && first != p.end() && *first == "usr";
}

void add_entries(std::vector<mount_entry>& out, const std::vector<fs::path>& paths,
                 const char* option) {
  const bool read_only = std::string(option) != "--bind";
  for (const auto& given : paths) {
    std::error_code error;
    const fs::path absolute = fs::absolute(given, error).lexically_normal();
    const fs::path real = fs::weakly_canonical(absolute, error);
    const fs::path host = error ? absolute : real;
    if (!(read_only && under_usr(host))) {
      out.push_back({host, host, option});
    }
    if (host != absolute && !under_usr(absolute)) {
      out.push_back({host, absolute, option});
    }
  }
}

void user_mounts(args& out, const profile& view) {
  std::vector<mount_entry> entries;
  // A read-only path that does not exist is simply not there (a relocated install may lack a
  // lib/ folder); a writable one must exist.
  add_entries(entries, view.read_only, "--ro-bind-try");
  add_entries(entries, view.writable, "--bind");
  // Parents before children; at equal depth writable after read-only, so it wins.
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return depth(a.inside) < depth(b.inside); });
  for (const auto& e : entries) {
    add(out, {e.option, e.host.string(), e.inside.string()});
  }
  for (const auto& file : view.masked) {
    add(out, {"--ro-bind", "/dev/null", fs::absolute(file).lexically_normal().string()});
  }
}

bool uses_gpu(role kind) {
  return kind == role::gpu_runner || kind == role::gpu_wrapper;
}

} // namespace

std::vector<fs::path> mount_order(const std::vector<fs::path>& paths) {
  std::vector<mount_entry> entries;
  add_entries(entries, paths, "--ro-bind");
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return depth(a.inside) < depth(b.inside); });
  std::vector<fs::path> out;
  for (const auto& e : entries) {
    out.push_back(e.inside);
  }
  return out;
}

std::vector<std::string> bwrap_argv(const bwrap_call& call) {
  args out{call.bwrap.string()};
  namespaces(out);
  system_mounts(out);
  scratch(out);
  if (uses_gpu(call.view.kind)) {
    gpu_access(out, call.view.gpu_index);
  }
  user_mounts(out, call.view);
  add(out, {"--clearenv"});
  for (const auto& [name, value] : call.env) {
    add(out, {"--setenv", name, value});
  }
  add(out, {"--chdir", call.working_dir.empty() ? "/" : call.working_dir.string()});
  if (call.seccomp_fd >= 0) {
    add(out, {"--seccomp", std::to_string(call.seccomp_fd)});
  }
  out.emplace_back("--");
  return out;
}

} // namespace cugrade::sandbox::detail
