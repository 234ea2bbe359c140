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

namespace {

// One stage over every kernel, its rows into the grading's stage table.
result<void> run_stage(grading& g, perf::gpu_stage& stage, const perf::gpu_stage_input& in) {
  auto stages = stage.run(in);
  if (!stages) {
    return fail("performance evaluation failed: " + stages.error());
  }
  g.timings.insert(g.timings.end(), stages->begin(), stages->end());
  return {};
}

} // namespace

result<void> run_gpu_stages(grading& g, perf::gpu_evaluator& gpu,
                            std::vector<checked_kernel>& checked,
                            const std::filesystem::path& library,
                            const std::filesystem::path& source,
                            const std::filesystem::path& work_dir) {
  perf::gpu_stage_input in{{}, library, g.options.hooks.after_runs};
  for (auto& c : checked) {
    in.kernels.push_back(&*c.report);
  }
  if (auto sanitized = run_stage(g, gpu.sanitizer(), in); !sanitized) {
    return sanitized;
  }
  profile_on_gpu(g, gpu, in.kernels, library, source, work_dir);
  return run_stage(g, gpu.timing(), in);
}

} // namespace cugrade::grader::detail
