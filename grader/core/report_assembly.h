#pragma once
/// \file
/// Filling in the parts of a report that are not a kernel's verdict: the submission, the
/// environment, the build, the final score with the late penalty, and writing the files.

#include "grader/build/build.h"
#include "grader/core/backend_choice.h"
#include "grader/core/grade.h"
#include "grader/fetch/fetch.h"
#include "grader/spec/assignment_spec.h"
#include "harness/protocol/protocol.h"
#include "reports/report.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace cugrade::grader {

/// A report with the assignment, an empty submission and this grader's version.
[[nodiscard]] reports::report base_report(const spec::assignment_spec& spec,
                                          const grade_options& options);
/// Marks the report not gradable (no score: a broken machine never gives a zero).
[[nodiscard]] grade_outcome not_gradable(reports::report& r, const std::string& why);
void record_backend(reports::report& r, const backend_choice& b);
/// The fetched commit and, against the grading's `deadline` (read once, grader/core/grade.cpp),
/// its late days.
void record_submission(reports::report& r, const spec::assignment_spec& spec,
                       const fetch::fetched_submission& fetched,
                       const std::optional<std::chrono::system_clock::time_point>& deadline);
/// Nothing could be built (the contract file is absent, the repository is empty): every kernel
/// wanted gets build_error with `why`, which the build log and summary say too.
void record_nothing_built(reports::report& r, const spec::assignment_spec& spec,
                          const grade_options& options, const std::string& why);
void record_build(reports::report& r, const build::build_outcome& built);
[[nodiscard]] std::string missing_launcher_message(const spec::assignment_spec& spec,
                                                   const std::string& launcher,
                                                   const build::build_outcome& built);
/// Emulated time is never GPU performance: in emulation each kernel's performance points are
/// "not measured in emulation (needs a GPU)", the same for every submission, and stay in its
/// maximum unearned only when the spec says "in_emulation": "counted".
void apply_backend_scoring(reports::report& r, const spec::assignment_spec& spec);
/// The maximum of every report of `spec` on the report's backend (for the kernels graded):
/// never depends on what the submission did.
[[nodiscard]] double maximum_score(const spec::assignment_spec& spec, reports::backend_kind backend,
                                   const grade_options& options);
/// Sums kernel scores, applies the late policy, never goes below zero.
void finish_scores(reports::report& r, const spec::assignment_spec& spec,
                   const grade_options& options);
/// Where reports go: --out, else ./reports/<assignment>/.
[[nodiscard]] std::filesystem::path report_dir(const spec::assignment_spec& spec,
                                               const grade_options& options);
/// Writes the requested formats atomically; a write failure turns into an infrastructure exit. A
/// not-gradable result never replaces a gradable report: it goes beside it (report_slot.h).
void write_outputs(grade_outcome& out, const spec::assignment_spec& spec,
                   const grade_options& options);
/// True when the kernel is graded this time (no --kernel, or named by one).
[[nodiscard]] bool wanted(const grade_options& o, const std::string& kernel);
/// Where build and run folders go (created if needed).
[[nodiscard]] std::filesystem::path prepare_work_parent(const layout& l);

} // namespace cugrade::grader
