#include "grader/core/report_assembly.h"

#include <gtest/gtest.h>

namespace cugrade::grader {
namespace {

spec::assignment_spec matmul_spec() {
  auto spec = spec::load_assignment("matmul", CUGRADE_SOURCE_DIR);
  EXPECT_TRUE(spec.ok()) << spec.error();
  return *spec;
}

reports::kernel_report kernel(const std::string& name, double score, double max) {
  reports::kernel_report k;
  k.name = name;
  k.score = score;
  k.max_score = max;
  return k;
}

TEST(Scoring, OneMaximumPerBackendWhateverTheSubmission) {
  const auto spec = matmul_spec();
  grade_options all;
  EXPECT_DOUBLE_EQ(maximum_score(spec, reports::backend_kind::gpu, all), 50);
  EXPECT_DOUBLE_EQ(maximum_score(spec, reports::backend_kind::emu, all), 40);
  grade_options tiled;
  tiled.kernels = {"matmul_tiled"};
  EXPECT_DOUBLE_EQ(maximum_score(spec, reports::backend_kind::gpu, tiled), 20);
  auto counted = spec;
  counted.performance.counted_in_emulation = true;
  EXPECT_DOUBLE_EQ(maximum_score(counted, reports::backend_kind::emu, all), 50);
  // A report with no kernels at all (a failure before any ran) has the same maximum.
  for (const auto backend : {reports::backend_kind::gpu, reports::backend_kind::emu}) {
    reports::report empty;
    empty.environment.backend = backend;
    finish_scores(empty, spec, all);
    EXPECT_DOUBLE_EQ(empty.max_score, maximum_score(spec, backend, all));
  }
}

TEST(Scoring, EmulationSaysPerformanceIsNotMeasuredForEveryKernelWithPerformancePoints) {
  const auto spec = matmul_spec();
  reports::report r;
  r.environment.backend = reports::backend_kind::emu;
  r.kernels = {kernel("matmul_naive", 10, 10), kernel("matmul_tiled", 0, 20)};
  finish_scores(r, spec, {});
  EXPECT_EQ(r.kernels[0].performance_note, "");
  EXPECT_EQ(r.kernels[1].performance_note,
            "not measured in emulation (needs a GPU): its 5 performance points come from the GPU "
            "grading");
  EXPECT_DOUBLE_EQ(r.kernels[1].max_score, 15);
  EXPECT_DOUBLE_EQ(r.kernels[1].performance_max, 0);
  EXPECT_DOUBLE_EQ(r.max_score, 40);
  reports::report gpu = r;
  gpu.environment.backend = reports::backend_kind::gpu;
  gpu.kernels = {kernel("matmul_tiled", 0, 20)};
  finish_scores(gpu, spec, {});
  EXPECT_EQ(gpu.kernels[0].performance_note, "");
  EXPECT_DOUBLE_EQ(gpu.max_score, 50);
}

} // namespace
} // namespace cugrade::grader
