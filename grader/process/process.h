#pragma once
/// \file
/// Running a child program the way a sandbox keeper does (isolate's habits): an explicit argv and
/// never a shell, its own process group, death when the grader dies, stdin from /dev/null, output
/// captured within a cap, optional resource limits, and a wall-clock limit that kills the whole
/// group, grandchildren included, before the child is reaped.
///
/// What a child does (exit status, signal, timeout, output) is data in `process_result`;
/// `run_process` fails only when the program cannot be started at all.

#include "harness/core/result.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cugrade::process {

/// A wall-clock limit that starts after the child does. A timing runner is started ahead of its
/// turn on the GPU and waits, running nothing of the student's, until it is let go; its time limit
/// counts from then. One thread starts the clock, the thread supervising the child reads it.
class limit_clock {
public:
  /// From now on the limit counts (a second call changes nothing).
  void start() noexcept;
  /// When start() was called, if it was.
  [[nodiscard]] std::optional<std::chrono::steady_clock::time_point> started() const noexcept;

private:
  std::atomic<std::chrono::steady_clock::rep> m_started{0}; // time since epoch; 0: not yet
};

/// What to run and under which limits. Only `argv` is required.
struct spawn_options {
  /// Program and arguments. argv[0] without a '/' is looked up on the grader's PATH.
  std::vector<std::string> argv;
  /// Directory the child starts in; empty keeps the grader's.
  std::filesystem::path working_dir;
  /// Variables set in the child, overriding inherited ones of the same name.
  std::vector<std::pair<std::string, std::string>> env_add;
  /// Start from an empty environment (then `env_keep`, then `env_add`) instead of the grader's.
  bool clear_env = false;
  /// With `clear_env`: names copied from the grader's environment when set there.
  std::vector<std::string> env_keep;
  /// Wall-clock limit; on expiry the whole process group gets SIGKILL.
  std::optional<double> time_limit_seconds;
  /// With a time limit: it counts from `limit_starts->start()` instead of from the start, and
  /// until then the child may live at most `wait_limit_seconds` (waiting for its turn).
  std::shared_ptr<const limit_clock> limit_starts;
  double wait_limit_seconds = 3600;
  /// With a time limit: on expiry the group gets SIGTERM first and SIGKILL this many seconds
  /// later (0: SIGKILL at once), so a runner can say where its threads were.
  double stop_grace_seconds = 0;
  /// RLIMIT_CPU in seconds (SIGXCPU at the limit, SIGKILL a second later).
  std::optional<double> cpu_time_limit_seconds;
  /// RLIMIT_AS: allocations beyond it fail (malloc returns null, mmap fails).
  std::optional<std::size_t> address_space_bytes;
  /// RLIMIT_FSIZE: writing beyond it raises SIGXFSZ.
  std::optional<std::size_t> file_size_bytes;
  /// RLIMIT_NPROC. Linux counts every process of the same real user, not just the child's, so
  /// this only means something for a dedicated sandbox user.
  std::optional<int> max_processes;
  /// Bytes kept per stream: the first half and the last half; the middle is dropped and noted.
  std::size_t capture_limit_bytes = std::size_t{1} << 20;
  /// Descriptors (>= 3) the child keeps at the same numbers, e.g. a report pipe. Every other
  /// descriptor above 2 is closed at exec.
  std::vector<int> inherit_fds;
  /// `cgroup.procs` files the child writes itself into before exec (cgroup v1 or v2), so a
  /// memory or process ceiling covers it and everything it starts (grader/sandbox sets these).
  std::vector<std::filesystem::path> cgroup_procs_files;
};

/// How a child ended. Core dumps are always off (RLIMIT_CORE = 0).
struct process_result {
  /// Exit status when it exited normally, else -1.
  int exit_code = -1;
  /// The signal that ended it, else 0 (SIGKILL after a timeout).
  int term_signal = 0;
  /// The wall-clock limit expired and the group was killed.
  bool timed_out = false;
  /// From just before fork until the child was reaped.
  double wall_seconds = 0;
  /// User plus system CPU time of the child and its reaped descendants.
  double cpu_seconds = 0;
  std::string stdout_text;
  std::string stderr_text;
  /// Either stream exceeded the capture limit (the text carries an "[... N bytes omitted ...]"
  /// line).
  bool output_truncated = false;
  /// Peak resident set size of the child (kilobytes, from wait4's rusage).
  long max_rss_kb = 0;

  /// The shell's convention: the exit code, or 128 + signal.
  [[nodiscard]] int shell_status() const;
  /// Exited with status 0, in time.
  [[nodiscard]] bool succeeded() const;
};

/// Runs a program to completion. Fails only when it cannot be started (not found, not
/// executable, bad working directory, a limit that cannot be set); the message names the program
/// and the errno text. Throws cugrade::error when the grader itself runs out of pipes or processes.
result<process_result> run_process(const spawn_options& options);

/// Looks `name` up on PATH (or checks it directly when it contains a '/'): the first executable
/// regular file, or nothing.
std::optional<std::filesystem::path> find_program(std::string_view name);

} // namespace cugrade::process
