#pragma once
/// \file
/// The leaderboard from a batch's reports: one board per timed kernel (reports::standing_of
/// decides ranked or not, and why) and the overall board, banded (bands.h), under public names.

#include "grader/leaderboard/batch_reports.h"
#include "grader/leaderboard/leaderboard.h"
#include "grader/leaderboard/public_names.h"

#include <string>
#include <vector>

namespace cugrade::leaderboard {

struct board_input {
  std::vector<student_report> reports;   ///< sorted by student id
  std::vector<std::string> not_reported; ///< roster students without a report file
  named_students names;                  ///< a public name for every student above
  std::string title;                     ///< empty: "<assignment> leaderboard"
  std::string created_at;                ///< ISO 8601 UTC
};

[[nodiscard]] leaderboard build_leaderboard(const board_input& in);

} // namespace cugrade::leaderboard
