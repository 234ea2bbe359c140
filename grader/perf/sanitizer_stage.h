#pragma once
/// \file
/// The sanitizer stage of a grading on the GPU (docs/timing.md, "Sanitizer checks"): the spec's
/// compute-sanitizer tools over every kernel that ran, each tool once over every kernel, then
/// kernel by kernel only where a pass found something. Its runs share the GPU like correctness
/// runs (the lock held shared).

#include "grader/perf/gpu_grading.h"
#include "grader/perf/gpu_stage.h"
#include "grader/perf/sanitizer_check.h"
#include "harness/core/result.h"
#include "reports/report.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::perf {

class sanitizer_stage final : public gpu_stage {
public:
  /// `enabled`: run the spec's checks at all (they run only where the spec enables them too).
  sanitizer_stage(const gpu_grading& grading, gpu_lock& lock, bool enabled);

  /// Whether sanitize() would do anything for `k` (its status, the spec, `enabled`).
  [[nodiscard]] bool checks(const reports::kernel_report& k) const;
  /// Every tool of the spec on `k` alone; may be called from several threads at once.
  [[nodiscard]] result<void> sanitize(reports::kernel_report& k,
                                      const std::filesystem::path& student_library);
  /// The checks of several kernels at once: each tool runs once over every kernel that checks()
  /// accepts (run_sanitizer_pass), then kernel by kernel only the tools whose pass found
  /// something or did not finish, so every finding comes from a run of its kernel alone and the
  /// verdicts are those of sanitize(). Gives the stages: the pass (no kernel), then each kernel
  /// checked alone.
  [[nodiscard]] result<std::vector<reports::stage_timing>>
  sanitize_all(const std::vector<reports::kernel_report*>& kernels,
               const std::filesystem::path& student_library);

  // As a gpu_stage: sanitize_all().
  [[nodiscard]] std::string_view name() const override { return "sanitizer"; }
  [[nodiscard]] result<std::vector<reports::stage_timing>> run(const gpu_stage_input& in) override {
    return sanitize_all(in.kernels, in.student_library);
  }

private:
  /// What every compute-sanitizer run needs: the tool found, and the GPU held shared.
  struct turn {
    sanitizer_setup tools;
    process::device_lock lock;
  };
  [[nodiscard]] result<turn> take_turn() const;
  result<void> run_checks(reports::kernel_report& k, const std::filesystem::path& library,
                          const std::vector<std::string>& tools);
  /// One run of each tool over every one of `kernels`; gives the tools that found nothing.
  result<std::vector<std::string>> pass(const std::vector<reports::kernel_report*>& kernels,
                                        const std::filesystem::path& library);
  /// `tools` on each of `kernels` alone, the kernels at once (each in its own runners).
  result<std::vector<reports::stage_timing>>
  check_each(const std::vector<reports::kernel_report*>& kernels,
             const std::filesystem::path& library, const std::vector<std::string>& tools);

  const gpu_grading& m_grading;
  gpu_lock& m_lock;
  bool m_enabled;
};

/// compute-sanitizer next to `nvcc`, or on PATH.
[[nodiscard]] std::optional<std::filesystem::path>
find_compute_sanitizer(const std::filesystem::path& nvcc);

} // namespace cugrade::perf
