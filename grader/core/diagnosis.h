#pragma once
/// \file
/// Diagnosis: what a kernel's pattern of results says its mistake is, in the assignment's own
/// words (tiles for matmul, bins and contention for histograms, partial sums for reductions).
///
/// Every rule looks at the evidence (statuses, faults and their source lines, the two runs of
/// each case, output values) and returns a candidate hint with what supports it and what
/// contradicts it. Contradicted candidates are dropped; the rest are ranked most specific first,
/// ties in rule order, so the same outcomes always give the same hints in the same order
/// (docs/hints.md is the catalogue). Pure: no I/O, no clocks, no hash-map iteration.

#include "grader/core/case_evaluation.h"
#include "grader/core/case_plan.h"
#include "grader/core/source_facts.h"
#include "reports/report.h"

#include <string>
#include <vector>

namespace cugrade::grader {

/// Everything diagnosis looks at for one kernel.
struct diagnosis_input {
  problems::kind problem; ///< no default (problems::kind): set by whoever makes one
  std::string kernel;     ///< the launcher, e.g. "matmul_tiled"
  const std::vector<graded_case>* cases = nullptr;
  const std::vector<case_outcome>* outcomes = nullptr;
  std::vector<bool> hidden; ///< per case: its details are never named
  double time_limit_seconds = 0;
  /// What the source text shows of the code this launcher runs (source_facts.h), and the
  /// source's file name for its locations ("matmul.cu").
  source_facts source{};
  std::string source_file{};
};

/// The kernel's hints, ranked; empty for a kernel whose cases all passed. A failed or faulty
/// kernel always gets at least one.
[[nodiscard]] std::vector<reports::hint> diagnose(const diagnosis_input& in);

/// True when every dimension of the shape is a multiple of `m` (problems::all_multiples_of).
using problems::all_multiples_of;

} // namespace cugrade::grader
