#pragma once
/// \file
/// Where a kernel stops being right. When every tested size up to some n passes and every larger
/// one fails (the size_threshold hint), a few extra sizes between the two are graded to find the
/// largest that passes, so the hint names the limit: "right for every size up to n = 262,656 and
/// wrong from n = 262,657". First the sizes a fixed second level or a fixed grid stops at (S x B
/// and S x (B + 1) elements for S and B powers of two from 32 to 2048), then halves of what is
/// left. At most max_size_probes extra runs, each of one case, each smaller than the smallest
/// failing size tested. Kinds with one size (n) only; a matrix's three dimensions are not probed.

#include "grader/core/case_evaluation.h"
#include "grader/core/case_plan.h"
#include "grader/core/kernel_run.h"
#include "grader/spec/assignment_spec.h"
#include "reports/report.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace cugrade::grader {

/// The most extra sizes graded for one kernel.
inline constexpr std::size_t max_size_probes = 8;

/// What is known of the limit: every size up to `largest_passing` that was graded passed, and
/// `smallest_failing` failed.
struct size_limit {
  long largest_passing = 0;
  long smallest_failing = 0;
  std::size_t probes = 0; ///< extra sizes graded to find it
  graded_case model;      ///< the failing case whose distribution the probes use
  [[nodiscard]] bool exact() const { return smallest_failing == largest_passing + 1; }
  bool operator==(const size_limit&) const = default;
};

/// The bracket the visible cases give when the kernel is right only up to a size (diagnosis's
/// size_threshold), for a kind whose shapes have n alone; nullopt otherwise.
[[nodiscard]] std::optional<size_limit> size_bracket(problems::kind problem,
                                                     const std::vector<graded_case>& cases,
                                                     const std::vector<case_outcome>& outcomes,
                                                     const std::vector<bool>& hidden);

/// Grades one extra case: true when it passes, false when it fails or faults, nullopt when it
/// could not be judged (a time-out, the grader's own trouble), which ends the search.
using grade_one_case = std::function<std::optional<bool>(const graded_case&)>;

/// The extra case for size n: the model's distribution, a seed of its own, a name no spec gives.
[[nodiscard]] graded_case probe_case(const graded_case& model, long n);

/// Narrows `bracket` with at most max_size_probes calls of `grade_one`.
[[nodiscard]] size_limit narrow_size_limit(size_limit bracket, const grade_one_case& grade_one);

/// Names the measured limit in the kernel's size_threshold hint (when it has one).
void name_size_limit(reports::kernel_report& k, problems::kind problem, const size_limit& limit);

/// Runs one runner plan within a time limit (the grading's runner, on its device).
using run_plan = std::function<result<kernel_run>(const protocol::plan&, double seconds)>;

/// The whole step for one graded kernel `k`: when its first hint is size_threshold, grades
/// extra sizes in runners of their own (folders under `work_dir`, one case and one run each)
/// while a quarter of the kernel's time limit is left of `seconds_left`, and names the limit.
void measure_size_limit(const spec::assignment_spec& spec, const std::string& launcher,
                        const std::filesystem::path& library, const std::filesystem::path& work_dir,
                        const std::vector<graded_case>& cases,
                        const std::vector<case_outcome>& outcomes, double seconds_left,
                        const run_plan& run, reports::kernel_report& k);

} // namespace cugrade::grader
