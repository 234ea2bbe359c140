#pragma once
/// \file
/// `cugrade bench`: every reference kernel of an assignment on every benchmark case, timed with
/// the grading protocol and verified, beside the device's roofline and the vendor library's
/// figure and what the sampling cost (its wall time over the device time it kept); or, with
/// self_speedup, the reference timed against itself the way grading times a submission (its
/// cached time and a control, or A B B A rounds with `precise`), whose speedups must come out
/// 1.00 within noise (the protocol's own check).

#include "grader/layout/layout.h"
#include "grader/perf/gpu_evaluation.h"
#include "grader/spec/assignment_spec.h"
#include "harness/roofline/roofline.h"
#include "reports/report.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::perf {

struct bench_options {
  bool self_speedup = false; ///< grading's comparison, the reference as the submission
  std::vector<std::string> kernels; ///< empty: every kernel of the spec
  gpu_evaluation_options evaluation;
};

/// One kernel on one benchmark case.
struct bench_row {
  std::string kernel;
  problems::test_case tc;
  reports::performance_entry entry; ///< speedup fields only with self_speedup
  bool verified = false;
  std::string problem; ///< why not verified
  /// The measured launcher's timing of this case in each run, samples in the order taken (for
  /// the JSON: spread by input set, clock and gating can be examined after the fact).
  std::vector<protocol::timing_record> runs;
};

struct bench_result {
  std::string assignment;
  problems::kind problem; ///< no default (problems::kind): set by whoever makes one
  std::string device;
  bool self_speedup = false;
  bool precise = false; ///< self_speedup by A B B A rounds
  std::filesystem::path reference_library;
  std::optional<roofline::device_roofline> roof;
  std::vector<bench_row> rows;
  /// Every row verified (and, for self_speedup, every speedup within 1% of 1).
  [[nodiscard]] bool all_good() const;
};

/// Runs the benchmark. Fails for infrastructure only (the reference does not build, a runner
/// cannot start); a reference that fails its own checks shows as an unverified row.
[[nodiscard]] result<bench_result>
run_bench(const spec::assignment_spec& spec, const grader::layout& layout,
          const std::filesystem::path& nvcc, const protocol::device_identity& device,
          const std::filesystem::path& work_dir, const bench_options& options,
          const std::function<void(std::string_view)>& progress);

/// Wall time of the sampling loops over the device time of their kept samples, for one row.
[[nodiscard]] double sampling_overhead(const bench_row& row);

/// A fixed-width table for a terminal.
[[nodiscard]] std::string bench_table(const bench_result& r);
/// The same as JSON (schema "cugrade.bench/1"), with each case's seed and the reference library.
[[nodiscard]] std::string bench_json(const bench_result& r);

} // namespace cugrade::perf
