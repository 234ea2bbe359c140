#pragma once
// A full report exercising every field, shared by the reports tests.

#include <limits>

#include "reports/report.h"

namespace cugrade::reports::testing {

/// A shape that only a hidden test carries; no written format may contain it.
inline constexpr const char* hidden_shape = "1031x77x513";

inline kernel_report passing_kernel() {
  kernel_report k;
  k.name = "matmul_naive";
  k.status = kernel_status::passed;
  k.score = 12;
  k.max_score = 12;
  k.performance_score = 2;
  k.performance_max = 2;
  test_result t{"17x33x9/real",
                "edge",
                visibility::visible,
                test_status::passed,
                "17x33x9",
                "real",
                0.0,
                0.0,
                0,
                std::nullopt,
                "",
                "",
                0};
  k.tests = {t};
  k.groups = {{"edge", visibility::visible, true, 10, 10, 1, 1}};
  performance_entry p;
  p.shape = "2048x2048x2048";
  p.distribution = "real";
  p.median_ms = 3.5;
  p.mean_ms = 3.6;
  p.rel_stddev = 0.02;
  p.samples = 30;
  p.min_ms = 3.4;
  p.max_ms = 3.9;
  p.reference_ms = 7.0;
  p.speedup = 2.0;
  p.speedup_ci_low = 1.9;
  p.speedup_ci_high = 2.1;
  p.gflops = 4900;
  p.gbps = 10;
  p.roof_percent = 8.5;
  p.library_ms = 0.5;
  p.library_name = "cuBLAS";
  p.sm_clock_mhz = 1980;
  p.note = "stable";
  k.performance = {p};
  k.speedup_geomean = 2.0;
  return k;
}

inline kernel_report failing_kernel() {
  kernel_report k;
  k.name = "matmul_tiled";
  k.status = kernel_status::failed;
  k.message = "wrong results at the right and bottom edges";
  k.score = 4;
  k.max_score = 12;
  test_result bad{"33x17x65/integer",
                  "edge",
                  visibility::visible,
                  test_status::failed,
                  "33x17x65",
                  "integer",
                  3.0,
                  1.0,
                  12,
                  mismatch_info{5, 1.0, std::numeric_limits<double>::quiet_NaN()},
                  "12 of 2145 elements differ <&\"quotes\"> here",
                  "tile 16, grid 3x2\n",
                  5000};
  test_result secret{std::string(hidden_shape) + "/real",
                     "hidden_edge",
                     visibility::hidden,
                     test_status::failed,
                     hidden_shape,
                     "real",
                     7.0,
                     0.5,
                     99,
                     mismatch_info{7, 2.0, 3.0},
                     std::string("failed on ") + hidden_shape,
                     std::string("n = ") + hidden_shape + "\n",
                     20};
  test_result ok{"1x1x1/real",
                 "edge",
                 visibility::visible,
                 test_status::passed,
                 "1x1x1",
                 "real",
                 0.0,
                 0.0,
                 0,
                 std::nullopt,
                 "",
                 "",
                 0};
  k.tests = {bad, secret, ok};
  k.groups = {{"edge", visibility::visible, false, 4, 8, 2, 1},
              {"hidden_edge", visibility::hidden, false, 0, 4, 1, 0}};
  k.diagnosis = {{hint_code::boundary_check,
                  "threads outside P must not store; see case " + std::string(hidden_shape)}};
  return k;
}

inline kernel_report missing_kernel() {
  kernel_report k;
  k.name = "matmul_dynamic";
  k.status = kernel_status::error;
  k.error_kind = fault_kind::out_of_bounds;
  k.message = "illegal address";
  k.score = 0;
  k.max_score = 12;
  k.diagnosis = {{hint_code::out_of_bounds,
                  "a store past the end of P",
                  "matmul.cu:30",
                  {"faulted on 17x17x17 (write just past the end of P)"}}};
  k.performance_note = "not measured: the kernel failed";
  return k;
}

/// A gradable report touching every field: 3 kernels, one late day.
inline report sample_report() {
  report r;
  r.assignment_name = "matmul";
  r.spec_sha256 = std::string(64, 'a');
  r.submission = {
      "https://example.org/alice/matmul.git",
      std::string(40, 'b'),
      "2025-03-01T12:00:00+01:00",
      "2025-02-28T23:59:00Z",
      1,
      "alice",
      {"graded the last commit on main at or before the deadline", "1 uncommitted change"}};
  r.environment = {backend_kind::gpu, "NVIDIA H100", "550.54", "13.0", "0.1.0", "node17"};
  r.build = {build_status::ok, "nvcc ok\n", 12.5, "matmul.cu:3: warning: unused variable 'x'", 1};
  r.kernels = {passing_kernel(), failing_kernel(), missing_kernel()};
  r.max_score = 36;
  r.late_penalty = 1.5;
  r.score = 12 + 4 - 1.5;
  r.seed = 0xfedcba9876543210ull;
  r.elapsed_seconds = 42.25;
  r.stages = {{"build", "", 12.5, {}},
              {"timing",
               "matmul_naive",
               7.25,
               {{"lock wait", 3.5}, {"student runs", 1.25}, {"control", 1}, {"checks", 1.5}}}};
  r.created_at = "2025-03-01T12:05:00Z";
  return r;
}

} // namespace cugrade::reports::testing
