#pragma once
/// \file
/// `--regrade new-commits`: written students whose repository now offers a different commit
/// to grade (pushed before the deadline since the last run), found by fetching each git source
/// again with the same commit and deadline rules as grading.

#include "grader/batch/batch.h"
#include "grader/batch/journal.h"

#include <optional>
#include <set>
#include <string>

namespace cugrade::batch {

[[nodiscard]] std::set<std::string>
students_with_new_commits(const batch_options& o, const grader::layout& l, journal& j,
                          const std::optional<std::string>& spec_deadline);

} // namespace cugrade::batch
