#pragma once
/// \file
/// The class roster: a CSV file with a header naming at least `student` and `repository`
/// (optional `commit`, `deadline`, `nickname`), or a GitHub Classroom roster export whose
/// repositories come from `--repository-template`. Read with libcsv and validated whole before
/// any grading: every problem is reported with the file, line, column and the fix.

#include "harness/core/result.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::batch {

/// One student to grade.
struct roster_entry {
  std::string student;                 ///< unique, ignoring case; names the report files
  std::string repository;              ///< a directory, a local git repository or a git URL
  std::optional<std::string> commit;   ///< pinned commit, branch or tag
  std::optional<std::string> deadline; ///< this student's deadline (an extension)
  std::string nickname;                ///< for leaderboards; may be empty
  std::size_t line = 0;                ///< where the row starts in the file (1-based)
};

struct roster {
  std::filesystem::path file;
  std::vector<roster_entry> entries; ///< in file order
};

struct roster_options {
  /// e.g. "https://github.com/org/matmul-{github_username}": each {column} is replaced by that
  /// column's value; then the file needs no `repository` column (GitHub Classroom exports).
  std::string repository_template;
};

/// Reads and validates the roster; the failure lists every problem, one per line. Besides each
/// field's form, it refuses an id that repeats another (also in other case: "alice" and "Alice"
/// would be one report file on a case-insensitive disk) and an id that could name another
/// student's report file (reports::report_id_problem: "eve.gradescope").
[[nodiscard]] result<roster> load_roster(const std::filesystem::path& file,
                                         const roster_options& options = {});

/// True for ids usable as file names: letters, digits and . _ - @ +, not starting with a dot.
[[nodiscard]] bool is_valid_student_id(const std::string& id);

} // namespace cugrade::batch
