#pragma once
/// \file
/// `--regrade new-commits`: written students whose repository now offers a different commit
/// to grade (pushed before the deadline since the last run), found by fetching each git source
/// again with the same commit and deadline rules as grading.

#include "grader/batch/batch.h"
#include "grader/batch/journal.h"
#include "grader/spec/assignment_spec.h"

#include <optional>
#include <set>
#include <string>

namespace cugrade::batch {

/// Fetches each written student's source again under `spec`'s deadline and limits.
[[nodiscard]] std::set<std::string> students_with_new_commits(const batch_options& o,
                                                              const grader::layout& l, journal& j,
                                                              const spec::assignment_spec& spec);

} // namespace cugrade::batch
