#pragma once
/// \file
/// Diagnosis: specific hints drawn from a kernel's pattern of results across cases, in the
/// course's own terms (boundary checks, barriers, atomics). Every failed or faulty kernel gets
/// at least one hint.

#include "grader/core/case_evaluation.h"
#include "grader/core/case_plan.h"
#include "reports/report.h"

#include <vector>

namespace cugrade::grader {

/// Hints for one kernel; hidden cases contribute patterns but are never named.
[[nodiscard]] std::vector<reports::hint> diagnose(problems::kind problem,
                                                  const std::vector<graded_case>& cases,
                                                  const std::vector<case_outcome>& outcomes,
                                                  const std::vector<bool>& hidden);

/// True when every dimension of the shape is a multiple of `m`.
[[nodiscard]] bool all_multiples_of(problems::kind problem, const problems::shape& s, long m);

} // namespace cugrade::grader
