#pragma once
/// \file
/// Where a grading's report goes, and whether what is already there may be replaced. Two rules
/// keep a TA's reports safe (docs/reports.md, "Report files"):
/// - a report from a different submission source under the same student id is never overwritten
///   silently: the grading is refused (a usage error naming both sources) unless the id was given
///   with --student or --force is given;
/// - a not-gradable result never replaces a gradable report: it is written beside it, under
///   `<id>.not-gradable`, and the command says so.

#include "harness/core/result.h"

#include <filesystem>
#include <optional>
#include <string>

namespace cugrade::grader {

/// The submission as a report records it: an existing local path made absolute and canonical
/// (so `hw`, `./hw` and `/abs/hw` are one source), a URL as given.
[[nodiscard]] std::string canonical_source(const std::string& submission);

/// The student id when none is given: the last two parts of the canonical source joined by "-"
/// ("coll/alice/hw" -> "alice-hw", "https://host/course/bob.git" -> "course-bob"), so sibling
/// folders with the same name never share a report.
[[nodiscard]] std::string default_student_id(std::string_view submission);

/// What an existing `<dir>/<id>.json` says, when it is a readable report.
struct existing_report {
  std::string source;
  bool gradable = true;
};
[[nodiscard]] std::optional<existing_report>
read_existing_report(const std::filesystem::path& json);

/// Refuses (a usage failure) an id that could name another student's report file
/// (reports::report_id_problem: "eve.gradescope.json" is eve's Gradescope results), saying
/// whether it came from --student (`given`) or from the submission's path.
[[nodiscard]] result<void> check_report_id(const std::string& id, bool given);

/// Refuses (a usage failure naming both sources) when `json` holds a report of another source.
[[nodiscard]] result<void> check_same_source(const std::filesystem::path& json,
                                             const std::string& source);

/// The file name base a report of `id` is written under: `id`, or `id.not-gradable` when the
/// report is not gradable and a gradable one already sits at `<dir>/<id>.json`.
[[nodiscard]] std::string report_basename(const std::filesystem::path& dir, const std::string& id,
                                          bool gradable);

} // namespace cugrade::grader
