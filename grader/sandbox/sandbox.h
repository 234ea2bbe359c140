#pragma once
/// \file
/// Confining the children that touch student input (compilers, nm, runners) with bubblewrap:
/// new user, PID, network, IPC, UTS and cgroup namespaces, an unprivileged uid, a read-only and
/// minimal file system, a seccomp filter, and a memory and process ceiling per run
/// (docs/sandbox.md). `confine` turns a process::spawn_options into the same run under `bwrap`
/// (an argv prefix, never a shell).
///
/// Fail closed: while the mode is `confined` (the default) a run that cannot be confined fails;
/// only `--no-sandbox` (mode `unconfined`) runs children as they are.

#include "grader/process/process.h"
#include "harness/core/result.h"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::sandbox {

/// Process-wide: confined unless the user asked for --no-sandbox.
enum class mode { confined, unconfined };
void set_mode(mode m) noexcept;
[[nodiscard]] mode current_mode() noexcept;

/// What a child is, which decides its seccomp filter and device access.
enum class role {
  compiler,   ///< nvcc, g++ and their subprocesses: may fork, no network
  tool,       ///< nm and the like: may not fork
  runner,     ///< an emulation runner: threads only, no new processes
  gpu_runner, ///< a GPU runner: threads only, the NVIDIA device nodes, /sys read-only
  gpu_wrapper ///< compute-sanitizer or ncu around a GPU runner: may fork and trace its child
};

/// Whether bubblewrap works on this machine, found and tried once per process.
struct availability {
  bool works = false;
  std::filesystem::path bwrap; ///< the binary used (CUGRADE_BWRAP, next to cugrade, or PATH)
  std::string version;         ///< "bubblewrap 0.8.0"
  std::string problem;         ///< why not, when !works
  std::string fix;             ///< what to do about it
};
[[nodiscard]] const availability& probe();

/// Which per-run memory ceiling this machine gives confined runs: "cgroup v2" or "cgroup v1"
/// (a cgroup made and removed to find out), or empty when none can be made (then compilers and
/// emulation runners fall back to RLIMIT_AS and GPU runners have no host-memory ceiling).
[[nodiscard]] std::string memory_ceiling_kind();

/// The report's environment.sandbox: "bubblewrap 0.8.0" when confined, else "none".
[[nodiscard]] std::string environment_word();

/// Refuses (a failure with the reason and the fix) when the mode is confined and the sandbox
/// does not work here; `cugrade grade` and `batch` call it before any child is started.
[[nodiscard]] result<void> require_working_sandbox();

/// The view of the host a child gets, besides the system toolchain and libraries.
struct profile {
  role kind = role::compiler;
  std::vector<std::filesystem::path> read_only;    ///< visible read-only at the same path
  std::vector<std::filesystem::path> writable;     ///< visible read-write at the same path
  std::vector<std::filesystem::path> masked;       ///< files replaced by an empty read-only file
  std::size_t memory_bytes = std::size_t{2} << 30; ///< cgroup ceiling, else RLIMIT_AS
  int max_pids = 256;                              ///< cgroup pids.max where available
  int gpu_index = 0;                               ///< gpu_runner: the one /dev/nvidiaN
};

class memory_ceiling;
class confinement;

namespace detail {
/// confine() against a given bwrap (the probe uses it before the sandbox is known to work).
[[nodiscard]] result<confinement> confine_with(const availability& found, const profile& p,
                                               process::spawn_options& options);
} // namespace detail

/// Owns what a confined run needs while it lives (the seccomp program's descriptor, the run's
/// cgroup); destroying it after run_process kills anything left in the cgroup and removes it.
class confinement {
public:
  confinement();
  confinement(confinement&&) noexcept;
  confinement& operator=(confinement&&) noexcept;
  ~confinement();

  /// The run's memory ceiling was reached (the kernel's OOM killer acted in its cgroup).
  [[nodiscard]] bool memory_exhausted() const;
  /// How the ceiling is enforced: "cgroup v2", "cgroup v1", "address-space limit" or "none".
  [[nodiscard]] std::string ceiling_kind() const;

private:
  friend result<confinement> detail::confine_with(const availability& found, const profile& p,
                                                  process::spawn_options& options);
  int m_seccomp_fd = -1;
  std::unique_ptr<memory_ceiling> m_ceiling;
};

/// Rewrites `options` to run under bwrap with profile `p` (unchanged when unconfined). Fails
/// when confined and the sandbox cannot be set up.
[[nodiscard]] result<confinement> confine(const profile& p, process::spawn_options& options);

} // namespace cugrade::sandbox
