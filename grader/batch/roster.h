#pragma once
/// \file
/// The class roster: a CSV file with a header naming at least `student` and `repository`
/// (optional `commit`, `deadline`, `nickname`, and the LMS columns of lms_columns: `lms_id`,
/// `name`, `first_name`, `last_name`, `sis_user_id`, `sis_login_id`, `section`), or a GitHub
/// Classroom roster export whose
/// repositories come from `--repository-template`. Read with libcsv and validated whole before
/// any grading: every problem is reported with the file, line, column and the fix.

#include "harness/core/result.h"

#include <array>
#include <cstddef>
#include <filesystem>
#include <map>
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
  /// The student in the LMS, by column name (`lms_id`, `sis_user_id`...: lms_columns below);
  /// only the non-empty ones.
  std::map<std::string, std::string> lms = {};
};

struct roster {
  std::filesystem::path file;
  std::vector<roster_entry> entries;          ///< in file order
  std::map<std::string, std::size_t> columns; ///< the header's columns by name (0-based)
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

/// The roster's optional columns that name a student in an LMS (docs/batch.md, "Gradebooks for
/// an LMS"): `lms_id` (Canvas's numeric user ID, Moodle's username, ID number or email,
/// Blackboard's username), `sis_user_id`, `sis_login_id` and `section` (Canvas), `name` (Canvas's
/// Student column), `first_name` and `last_name` (Blackboard).
inline constexpr std::array<const char*, 7> lms_columns{
    "lms_id", "sis_user_id", "sis_login_id", "section", "name", "first_name", "last_name"};

/// The columns of lms_columns that identify a student: unique in a roster.
inline constexpr std::array<const char*, 3> lms_id_columns{"lms_id", "sis_user_id", "sis_login_id"};

/// "FILE:LINE: column N (NAME): WHAT", the form of every roster problem (`column` 0-based).
[[nodiscard]] std::string roster_problem(const std::filesystem::path& file, std::size_t line,
                                         std::size_t column, const std::string& name,
                                         const std::string& what);

/// True for ids usable as file names: letters, digits and . _ - @ +, not starting with a dot.
[[nodiscard]] bool is_valid_student_id(const std::string& id);

} // namespace cugrade::batch
