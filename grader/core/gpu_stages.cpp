// The stages after correctness on the GPU (docs/timing.md): the sanitizer checks, one run of
// each tool over every kernel (kernel by kernel only where it finds something); the insights;
// then timing: every timed kernel's runners under one exclusive hold of the GPU, then their
// checks with the GPU let go.
#include "grader/core/detail/grading.h"

namespace cugrade::grader::detail {

void prepare_gpu_stages(grading& g, std::optional<perf::gpu_evaluator>& gpu,
                        const std::filesystem::path& work_dir) {
  perf::gpu_evaluation_options evaluation;
  evaluation.precise = g.options.precise;
  // `check` from the student distribution has no reference solution to time against.
  std::error_code ec;
  evaluation.timing =
      std::filesystem::is_regular_file(g.spec.reference_dir / g.spec.source_file, ec);
  gpu.emplace(g.spec, g.paths, g.backend.nvcc, g.backend.identity, g.context, work_dir / "perf",
              g.options.progress, evaluation);
}

result<void> run_gpu_stages(grading& g, perf::gpu_evaluator& gpu,
                            std::vector<checked_kernel>& checked,
                            const std::filesystem::path& library,
                            const std::filesystem::path& source,
                            const std::filesystem::path& work_dir) {
  std::vector<reports::kernel_report*> kernels;
  for (auto& c : checked) {
    kernels.push_back(&*c.report);
  }
  auto sanitized = gpu.sanitize_all(kernels, library);
  if (!sanitized) {
    return fail("performance evaluation failed: " + sanitized.error());
  }
  g.report.stages.insert(g.report.stages.end(), sanitized->begin(), sanitized->end());
  profile_on_gpu(g, gpu, kernels, library, source, work_dir);
  auto timed = gpu.time_all(kernels, library, g.options.hooks.after_runs);
  if (!timed) {
    return fail("performance evaluation failed: " + timed.error());
  }
  g.report.stages.insert(g.report.stages.end(), timed->begin(), timed->end());
  return {};
}

} // namespace cugrade::grader::detail
