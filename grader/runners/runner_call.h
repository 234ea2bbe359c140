#pragma once
/// \file
/// Starting a runner on a plan as a child process (its own process group, a wall-clock limit),
/// optionally under a wrapper program such as compute-sanitizer or ncu, and reading its events.

#include "grader/process/process.h"
#include "grader/runners/run_context.h"
#include "harness/core/result.h"
#include "harness/protocol/protocol.h"

#include <cstddef>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cugrade::runners {

/// How a runner process ended and what its event log says.
struct runner_outcome {
  protocol::runner_log log;
  bool timed_out = false;
  int exit_code = -1;
  int term_signal = 0;
  std::string stderr_tail;
  double wall_seconds = 0;
  /// Started, reported its end, and exited with status 0 in time.
  [[nodiscard]] bool clean() const;
  /// A sentence saying how it ended, for messages.
  [[nodiscard]] std::string ending() const;
};

/// The largest file a runner may write unless told otherwise (RLIMIT_FSIZE): a timing run saves
/// outputs of hundreds of megabytes.
inline constexpr std::size_t runner_file_size_bytes = std::size_t{8} << 30;

/// Writes `plan` to <plan.output_dir>/plan.json and runs `wrapper... runner --plan plan.json`
/// with `context`'s environment (runner_environment),
/// letting it write files of at most `file_size_bytes`; `tool_dirs` are folders the wrapper
/// needs to read inside the sandbox beside /usr (Nsight Compute under /opt/nvidia). Fails only
/// when the program cannot be started or the plan cannot be written. Used for every runner the
/// grader starts: correctness (grader/core/kernel_run.cpp), timing, sanitizer and counter runs.
[[nodiscard]] result<runner_outcome>
run_runner(const run_context& context, const std::filesystem::path& runner,
           const protocol::plan& plan, double time_limit_seconds,
           const std::vector<std::string>& wrapper = {},
           std::size_t file_size_bytes = runner_file_size_bytes,
           const std::vector<std::filesystem::path>& tool_dirs = {});

/// A CUDA toolkit program that wraps a runner (compute-sanitizer, ncu): beside `nvcc`, or on
/// PATH.
[[nodiscard]] std::optional<std::filesystem::path> find_cuda_tool(const std::filesystem::path& nvcc,
                                                                  const std::string& name);

/// A timing runner started ahead of its turn on the GPU (harness/runner/gate.h). It makes its CUDA
/// context (the slow part of a start, which the driver serialises across a machine's GPUs) while
/// the GPU is shared, says it is ready and waits, with nothing of the submission loaded; go() lets
/// it run its plan once the caller holds the GPU alone, and its time limit counts from then.
/// Dropped without go(), it is cancelled: it exits without running anything.
class gated_runner {
public:
  /// Starts `runner` on `plan` as run_runner does (sandbox, events descriptor, `context`), with a
  /// gate.
  [[nodiscard]] static result<std::unique_ptr<gated_runner>>
  start(const run_context& context, const std::filesystem::path& runner, const protocol::plan& plan,
        double time_limit_seconds);

  gated_runner(const gated_runner&) = delete;
  gated_runner& operator=(const gated_runner&) = delete;
  ~gated_runner();

  /// Waits at most `seconds` for the runner to say it is ready; false when it did not (it is
  /// still starting, or it ended: go() then says how).
  [[nodiscard]] bool wait_ready(double seconds);
  /// Lets it run its plan and waits for it to end. Call once.
  [[nodiscard]] result<runner_outcome> go();
  /// Tells it to end without running anything and waits for it to exit.
  void cancel();

private:
  explicit gated_runner(int gate_fd);
  int m_gate = -1;
  bool m_ready = false;
  std::shared_ptr<process::limit_clock> m_clock;
  std::future<result<runner_outcome>> m_run;
};

} // namespace cugrade::runners
