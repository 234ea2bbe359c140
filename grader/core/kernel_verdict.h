#pragma once
/// \file
/// From per-case outcomes to one kernel's report entry: its status (the contract's words),
/// tests, rubric groups, score and diagnosis.

#include "grader/core/case_evaluation.h"
#include "grader/core/case_plan.h"
#include "grader/core/source_facts.h"
#include "grader/spec/assignment_spec.h"
#include "reports/report.h"

#include <vector>

namespace cugrade::grader {

/// The kernel's entry for a kernel that ran (its status comes from its cases). `facts`: what
/// the source text shows of the code the launcher runs, for diagnosis.
[[nodiscard]] reports::kernel_report kernel_verdict(const spec::assignment_spec& spec,
                                                    const spec::kernel_spec& kernel,
                                                    const std::vector<graded_case>& cases,
                                                    const std::vector<case_outcome>& outcomes,
                                                    source_facts facts = {});

/// The entry for a kernel that never ran (missing, build_error, forbidden): no points, and the
/// groups listed so the rubric is still visible.
[[nodiscard]] reports::kernel_report kernel_not_run(const spec::assignment_spec& spec,
                                                    const spec::kernel_spec& kernel,
                                                    reports::kernel_status status,
                                                    reports::hint why);

[[nodiscard]] reports::visibility to_report(spec::visibility v);

} // namespace cugrade::grader
