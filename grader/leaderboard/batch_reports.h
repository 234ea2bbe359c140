#pragma once
/// \file
/// The reports of a `cugrade batch` output folder: every `BATCH_DIR/reports/*.json` whose
/// "schema" is a cugrade report (Gradescope and other formats beside them are skipped). A file
/// that cannot be read is kept as an entry without a report, so its student is listed unranked.

#include "harness/core/result.h"
#include "reports/report.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::leaderboard {

struct student_report {
  std::string student; ///< from the file name, the id batch names report files with
  std::optional<reports::report> report;
  std::string problem; ///< why `report` is empty: the file and what is wrong with it
};

/// The batch's reports, ordered by student id. Fails (a usage error) when BATCH_DIR has no
/// reports/ folder or it holds no cugrade report.
[[nodiscard]] result<std::vector<student_report>>
read_batch_reports(const std::filesystem::path& batch_dir);

} // namespace cugrade::leaderboard
