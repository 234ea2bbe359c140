#pragma once
/// \file
/// A student's report files under DIR/reports/, always written from the report the journal
/// holds (never from the grading's memory), so a resumed batch writes the same bytes as an
/// uninterrupted one. Each file is written atomically (temporary file, fsync, rename), and the
/// journal keeps each file's SHA-256, so a resumed batch notices a file that no longer holds what
/// was written (another student's report over it, or a hand's edit) and writes it again.

#include "grader/batch/journal.h"
#include "harness/core/result.h"
#include "reports/report.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::batch {

struct written_report {
  /// Every file written, the JSON report first, relative to DIR ("reports/alice.json").
  std::vector<written_file> files;
};

/// Parses the journaled report JSON (a report rendered by reports::render_json).
[[nodiscard]] result<reports::report> journaled_report(const std::string& report_json);

/// Writes every format (json always) for `student` from the journaled JSON.
[[nodiscard]] result<written_report> write_report_files(const std::filesystem::path& out_dir,
                                                        const std::string& student,
                                                        const std::string& report_json,
                                                        const std::vector<std::string>& formats);

/// How a written student's report files stand, for the formats asked (json always).
struct report_files_state {
  bool missing = false;             ///< a format's file is not there (deleted, or asked anew)
  std::vector<std::string> changed; ///< DIR-relative paths no longer holding what was written
  [[nodiscard]] bool intact() const { return !missing && changed.empty(); }
};

/// Compares each file with the SHA-256 the journal recorded when writing it (`e.report_files`;
/// a journal from before those were kept knows the JSON file's alone).
[[nodiscard]] report_files_state check_report_files(const std::filesystem::path& out_dir,
                                                    const journal_entry& e,
                                                    const std::vector<std::string>& formats);

/// "reports/<student>.json".
[[nodiscard]] std::string report_path_of(const std::string& student);

} // namespace cugrade::batch
