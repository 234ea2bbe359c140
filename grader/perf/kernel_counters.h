#pragma once
/// \file
/// Nsight Compute's hardware counters of one kernel on the GPU (docs/insight.md, "On the GPU"):
/// the kernel's runner runs its problem's profile shape once under `ncu`, inside the sandbox in
/// the role compute-sanitizer has, and only the launches of the student's call are measured (the
/// runner marks them with cudaProfilerStart/Stop; `--profile-from-start off`). The counters are
/// read back from ncu's CSV as untrusted text. Where the machine restricts the counters to
/// administrators (ERR_NVGPUCTRPERM) the outcome says so with the fix; nothing here fails a
/// grading over it.

#include "grader/runners/run_context.h"
#include "harness/core/result.h"
#include "harness/protocol/protocol.h"

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::perf {

/// Every counter ncu is asked for: memory requests, sectors, wavefronts and the bytes the
/// threads asked for (global, shared, atomics), instructions, DRAM bytes, the launch's
/// configuration and occupancy, and its duration.
[[nodiscard]] const std::vector<std::string>& counter_metric_names();

/// One profiled launch: its kernel's name and each metric's value ("n/a" values left out).
struct launch_counters {
  std::string kernel;
  std::map<std::string, double> values;
};

/// Every launch of the student's call that ncu measured, in order.
struct kernel_counters {
  std::vector<launch_counters> launches;
  /// Every metric some launch has, summed over the launches.
  [[nodiscard]] std::map<std::string, double> sums() const;
  /// The launch with the most threads (block size times grid size), or null when there is none:
  /// its configuration and occupancy stand for the kernel's.
  [[nodiscard]] const launch_counters* widest() const;
};

/// Reads ncu's `--csv --log-file` output (one row per launch and metric, after its `==PROF==`
/// lines). Fails on a file that cannot be read, quoting that is malformed, or a table without
/// ncu's columns, naming the file.
[[nodiscard]] result<kernel_counters> read_counters_csv(const std::filesystem::path& file);

/// Whether ncu's words say the performance counters are restricted to administrators.
[[nodiscard]] bool counters_restricted(const std::string& ncu_output);

/// What an administrator does to let every user read the counters (NVIDIA's ERR_NVGPUCTRPERM).
[[nodiscard]] std::string counters_permission_fix();

struct counters_setup {
  std::filesystem::path ncu;    ///< Nsight Compute's command line
  std::filesystem::path runner; ///< cugrade-runner-gpu
  runners::run_context context; ///< the GPU its grading is pinned to
  double time_limit_seconds = 60;
};

/// How a measurement ended: counters, or why there are none.
struct counters_outcome {
  std::optional<kernel_counters> counters;
  bool restricted = false; ///< ERR_NVGPUCTRPERM: the machine's setting, not the submission
  /// ncu itself failed before the runner started (a broken or partial install): the machine's
  /// fault, not the submission's.
  bool tool_failed = false;
  std::string problem; ///< why there are no counters, for the report's note
  double wall_seconds = 0;
};

/// Runs `plan` (the profiled case, `profile` set: the same plan emulation profiles) under ncu,
/// which writes its table into the plan's output folder. Fails only when a program cannot be
/// started; a run that measured nothing says why in the outcome.
[[nodiscard]] result<counters_outcome> measure_counters(const protocol::plan& plan,
                                                        const counters_setup& setup);

/// The folders Nsight Compute reads from when started as `ncu` (its install folder and
/// /opt/nvidia, where they exist): the sandbox lets the counter run read them.
[[nodiscard]] std::vector<std::filesystem::path>
nsight_compute_dirs(const std::filesystem::path& ncu);

/// `ncu` beside `nvcc`, or on PATH.
[[nodiscard]] std::optional<std::filesystem::path> find_ncu(const std::filesystem::path& nvcc);

/// "Nsight Compute 2025.3.1.0", from `ncu --version`, or "Nsight Compute" when it does not say.
[[nodiscard]] std::string ncu_version(const std::filesystem::path& ncu);

} // namespace cugrade::perf
