#pragma once
/// \file
/// `cugrade grade`: one submission in, one trustworthy report out. Fetch, build, check the
/// symbol policy, run each kernel in its own runner, compare, diagnose, score, write.

#include "grader/core/layout.h"
#include "reports/report.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::grader {

struct grade_options {
  std::string assignment;        ///< a name under assignments/ or a path to a spec
  std::string submission;        ///< a directory, a local repository or a git URL
  std::string backend = "auto";  ///< auto | gpu | emu
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
  bool write_files = true;
  std::function<void(std::string_view)> progress;
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
