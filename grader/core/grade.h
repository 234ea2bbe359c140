#pragma once
/// \file
/// `cugrade grade`: one submission in, one trustworthy report out. Fetch, build, check the
/// symbol policy, run each kernel in its own runner, compare, diagnose, score, write.

#include "grader/core/backend_choice.h"
#include "grader/layout/layout.h"
#include "grader/spec/assignment_spec.h"
#include "reports/report.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::grader {

/// The pipeline's stages, for callers that follow a grading (`cugrade batch` journals them).
enum class grade_stage { fetched, built };

/// Where a grading's runners go, chosen by grade_hooks::before_runs.
struct device_pin {
  std::string cuda_visible_devices; ///< empty: keep the inherited setting
  /// That device as its own probe described it (so per-device state, such as the GPU lock,
  /// follows the pinned GPU rather than the first one); empty: the backend's identity.
  std::optional<protocol::device_identity> identity;
};

/// Optional hooks into one grading; every call happens on the grading thread.
struct grade_hooks {
  /// A stage is done (not called for stages a failed grading never reaches).
  std::function<void(grade_stage)> reached;
  /// Called after a successful build, before the first runner starts; may block (batch waits
  /// there for a GPU slot). Returns the device this grading's runners are pinned to.
  std::function<device_pin()> before_runs;
  /// Called once the grading has no runner left on the GPU, before the timed calls' checks on
  /// the CPU (batch gives the GPU's slot to the next grading there). Not called when the grading
  /// stops before (the caller's own clean-up covers that).
  std::function<void()> after_runs;
};

struct grade_options {
  std::string assignment;       ///< a name under assignments/ or a path to a spec
  std::string submission;       ///< a directory, a local repository or a git URL
  std::string backend = "auto"; ///< auto | gpu | emu
  /// Hidden groups merged from the instructor's file (grade, batch) or never read (check).
  spec::load_options spec_loading;
  std::filesystem::path out_dir; ///< empty: ./reports/<assignment>/
  std::vector<std::string> formats{"json", "text"};
  std::optional<std::string> commit;
  std::optional<std::string> deadline;
  std::optional<std::uint64_t> seed;
  std::string student; ///< empty: derived from the submission's path (report_slot.h)
  /// Replace an existing report of a different submission source under the same id.
  bool force = false;
  std::optional<double> kernel_timeout_seconds; ///< overrides the spec's limit
  std::vector<std::string> kernels;             ///< grade only these launchers (empty: all)
  /// Time against the reference in A B B A rounds (for disputes) instead of against its cached
  /// time confirmed by a control measurement (GPU only; docs/timing.md).
  bool precise = false;
  /// Profile every kernel that passes and say why it is slow (docs/insight.md): in emulation
  /// with the warp profiler (`cugrade check --perf`), on the GPU with Nsight Compute. Off by
  /// default, except that on the GPU every timed kernel is profiled unless the spec says
  /// "insight": false.
  bool insight = false;
  bool write_files = true;
  std::function<void(std::string_view)> progress;
  grade_hooks hooks;
  /// A backend already chosen (batch probes once for the whole class); empty: choose from
  /// `backend`.
  std::optional<backend_choice> chosen_backend;
};

/// Exit codes of `cugrade grade` (and `check`).
enum class grade_exit : int { report_written = 0, usage_error = 2, infrastructure = 3 };

struct grade_outcome {
  grade_exit exit = grade_exit::report_written;
  std::string error;                     ///< for usage errors and infrastructure faults
  std::optional<reports::report> report; ///< absent only for usage/spec errors
  std::vector<std::filesystem::path> written;
  /// Things the person running cugrade must know, e.g. a not-gradable result written beside a
  /// gradable report instead of over it.
  std::vector<std::string> notices;
};

[[nodiscard]] grade_outcome grade(const grade_options& options, const layout& l);

} // namespace cugrade::grader
