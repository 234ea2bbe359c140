// The report of one walk, made once from what its stages returned (detail/grading.h): no stage
// writes the report.
#include "grader/core/detail/grading.h"
#include "grader/core/report_assembly.h"

#include <utility>

namespace cugrade::grader::detail {

grade_outcome assemble_report(reports::report base, const grading& g, stage_results r) {
  using ending = stage_results::ending;
  if (r.end == ending::usage_error) {
    return {grade_exit::usage_error, r.error, std::nullopt, {}, {}};
  }
  reports::report report = std::move(base);
  record_backend(report, g.backend); // the device the runners were pinned to, if one was
  if (r.fetched) {
    record_submission(report, g.spec, *r.fetched, g.deadline.when);
  }
  auto& notes = report.submission.notes;
  notes.insert(notes.end(), r.copy_notes.begin(), r.copy_notes.end());
  if (r.nothing_built) {
    record_nothing_built(report, g.spec, g.options, *r.nothing_built);
  }
  if (r.built) {
    record_build(report, *r.built);
  }
  for (auto& k : r.kernels) {
    report.kernels.push_back(std::move(k));
  }
  report.stages.insert(report.stages.end(), g.timings.begin(), g.timings.end());
  if (r.end == ending::not_gradable) {
    return not_gradable(report, r.error);
  }
  return {grade_exit::report_written, "", std::move(report), {}, {}};
}

} // namespace cugrade::grader::detail
