#pragma once
/// \file
/// A student's report files under DIR/reports/, always written from the report the journal
/// holds (never from the grading's memory), so a resumed batch writes the same bytes as an
/// uninterrupted one. Each file is written atomically (temporary file, fsync, rename).

#include "harness/core/result.h"
#include "reports/report.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::batch {

struct written_report {
  std::string path;   ///< relative to DIR, e.g. "reports/alice.json"
  std::string sha256; ///< of the JSON file's bytes
};

/// Parses the journaled report JSON (a report rendered by reports::render_json).
[[nodiscard]] result<reports::report> journaled_report(const std::string& report_json);

/// Writes every format (json always) for `student` from the journaled JSON.
[[nodiscard]] result<written_report> write_report_files(const std::filesystem::path& out_dir,
                                                        const std::string& student,
                                                        const std::string& report_json,
                                                        const std::vector<std::string>& formats);

/// True when every format's file exists and the JSON file still has `sha256`.
[[nodiscard]] bool report_files_intact(const std::filesystem::path& out_dir,
                                       const std::string& student, const std::string& sha256,
                                       const std::vector<std::string>& formats);

/// "reports/<student>.json".
[[nodiscard]] std::string report_path_of(const std::string& student);

} // namespace cugrade::batch
