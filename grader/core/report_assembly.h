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

#include <filesystem>
#include <string>

namespace cugrade::grader {

/// A report with the assignment, an empty submission and this grader's version.
[[nodiscard]] reports::report base_report(const spec::assignment_spec& spec,
                                          const grade_options& options);
/// Marks the report not gradable (no score: a broken machine never gives a zero).
[[nodiscard]] grade_outcome not_gradable(reports::report& r, const std::string& why);
void record_backend(reports::report& r, const backend_choice& b);
void record_submission(reports::report& r, const spec::assignment_spec& spec,
                       const fetch::fetched_submission& fetched, const grade_options& options);
/// The contract file is absent: every kernel gets build_error with a message saying so.
void record_missing_source(reports::report& r, const spec::assignment_spec& spec,
                           const std::filesystem::path& directory);
void record_build(reports::report& r, const build::build_outcome& built);
[[nodiscard]] std::string missing_launcher_message(const spec::assignment_spec& spec,
                                                   const std::string& launcher,
                                                   const build::build_outcome& built);
/// Emulated time is never GPU performance: in emulation the rubric's performance points are
/// left out of every maximum rather than counted as lost.
void drop_performance_points(reports::report& r);
/// Sums kernel scores, applies the late policy, never goes below zero.
void finish_scores(reports::report& r, const spec::assignment_spec& spec);
/// Writes the requested formats atomically; a write failure turns into an infrastructure exit.
void write_outputs(grade_outcome& out, const spec::assignment_spec& spec,
                   const grade_options& options);
/// Where build and run folders go (created if needed).
[[nodiscard]] std::filesystem::path prepare_work_parent(const layout& l);

} // namespace cugrade::grader
