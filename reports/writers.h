#pragma once
/// \file
/// The report's four written forms, and writing them to disk. Every renderer takes a
/// `redacted_report` (redact.h), which only `redact` makes, so no format ever carries a hidden
/// test's details.
///
/// - json: the report itself (report_json.h), schema reports/schema/report.schema.json.
/// - gradescope: Gradescope's results.json: one test per (kernel, rubric group) carrying the
///   group's points and visibility, plus performance and late-penalty lines, so the tests' scores
///   add up to the score. An ungradable report carries no score at all.
/// - junit: JUnit XML for CI dashboards: one <testsuite> per kernel, one <testcase> per test.
/// - text: a summary for terminals and e-mails.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/redact.h"
#include "reports/report.h"

namespace cugrade::reports {

/// Gradescope's results.json as JSON (fields in Gradescope's own names).
/// Its `leaderboard` holds each kernel's speedup (the leaderboard's own entries may replace them).
[[nodiscard]] nlohmann::ordered_json gradescope_json(const redacted_report& r);
/// gradescope_json as file text (2-space indentation, final newline).
[[nodiscard]] std::string render_gradescope(const redacted_report& r);

/// JUnit XML (UTF-8), hidden tests named but without details.
[[nodiscard]] std::string render_junit(const redacted_report& r);

/// `text` escaped for XML: & < > " ' become entities; carriage returns become a character
/// reference (a parser would otherwise normalise them away); in attribute values tabs and newlines
/// do too, since parsers turn literal ones into spaces there. Other control characters and invalid
/// UTF-8 become U+FFFD, since XML 1.0 cannot carry them at all.
[[nodiscard]] std::string xml_escape(std::string_view text, bool in_attribute = true);

/// A readable summary: per kernel its status, score, diagnosis and first failing tests; overall
/// score, late penalty, backend and device. ANSI colours only when `colour` is true (the caller
/// decides from isatty and NO_COLOR).
[[nodiscard]] std::string render_text(const redacted_report& r, bool colour);
/// Failing tests render_text lists per kernel before "... and N more".
inline constexpr std::size_t default_listed_failures = 3;
/// render_text listing up to `listed_failures` failing tests per kernel (`check --all`).
[[nodiscard]] std::string render_text(const redacted_report& r, bool colour,
                                      std::size_t listed_failures);

/// True for the format names write_report accepts: "json", "gradescope", "junit", "text".
[[nodiscard]] bool is_known_format(std::string_view format);

/// The suffix write_report gives `format`'s file: ".json", ".gradescope.json", ".junit.xml",
/// ".txt"; empty for an unknown format.
[[nodiscard]] std::string_view report_file_suffix(std::string_view format);

/// Added to the file name base of a not-gradable report written beside a gradable one
/// (`<id>.not-gradable.json`; grader/core/report_slot.h).
inline constexpr std::string_view not_gradable_stem = ".not-gradable";

/// Why `id` cannot name a student's report files (empty when it can). A report file is named
/// `<id>` plus a suffix, so an id ending in the first part of a suffix (".gradescope", ".junit")
/// or in ".not-gradable" could name another student's file: "eve.gradescope.json" is eve's
/// Gradescope results and eve.gradescope's report. Case is ignored, as a case-insensitive disk
/// ignores it ("Eve.GradeScope" too).
[[nodiscard]] std::string report_id_problem(std::string_view id);

/// What write_report wrote; `error` is empty on success.
struct written {
  std::vector<std::filesystem::path> files;
  std::string error; ///< the first failure (unknown format or I/O), naming the file
  [[nodiscard]] bool ok() const { return error.empty(); }
};

/// Redacts `r` once, then writes each requested format atomically into `out_dir` (created if
/// needed):
/// `<basename>.json`, `<basename>.gradescope.json`, `<basename>.junit.xml`, `<basename>.txt`.
/// Check names with is_known_format first; an unknown one is reported in `error` before anything
/// is written. Stops at the first I/O failure; `files` lists what was written before it.
[[nodiscard]] written write_report(const report& r, const std::filesystem::path& out_dir,
                                   const std::string& basename,
                                   const std::vector<std::string>& formats);

} // namespace cugrade::reports
