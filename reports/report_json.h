#pragma once
/// \file
/// The report as JSON (schema "cugrade.report/1", reports/schema/report.schema.json).
///
/// Optional values are omitted when absent, except the contract's always-present fields
/// (`score`, `submission.commit`, `submission.commit_time`, `submission.deadline`) which are
/// written as null. Measured values that may be NaN or infinite (errors, mismatch values, timings)
/// are written as the strings "NaN", "Infinity" and "-Infinity", since JSON has no such numbers.
/// Writing takes a redacted report (redact.h). Programs that read reports (scripts, an
/// LMS) read the JSON against the schema; cugrade itself never reads a report back.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "reports/redact.h"
#include "reports/report.h"

namespace cugrade::reports {

/// The redacted report as JSON, keys in the documented order.
[[nodiscard]] nlohmann::ordered_json to_ordered_json(const redacted_report& r);

/// The redacted report as JSON (keys sorted, as nlohmann::json keeps them).
[[nodiscard]] nlohmann::json to_json(const redacted_report& r);

/// Reads a report written by to_json (cugrade batch rewrites report files from its journal with
/// it). On failure returns nullopt and, when `err` is not null, sets it to a message naming the
/// field by JSON pointer, e.g. "/kernels/0/status: \"pass\" is not a kernel status (passed, ...)".
/// Unknown fields are ignored (readers stay compatible within a major schema version).
[[nodiscard]] std::optional<report> report_from_json(const nlohmann::json& j, std::string* err);

/// The report file's text: pretty JSON with 2-space indentation and a final newline; bytes that
/// are not UTF-8 (compiler logs can hold anything) become U+FFFD instead of failing.
[[nodiscard]] std::string render_json(const redacted_report& r);

} // namespace cugrade::reports
