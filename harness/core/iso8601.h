#pragma once
/// \file
/// Dates and times as cugrade reads and writes them (ISO 8601 / RFC 3339): one parser for every
/// deadline (`--deadline` and a spec's "deadline" accept the same forms) and one UTC formatter
/// for every time a report or message shows.

#include "harness/core/result.h"

#include <chrono>
#include <string>
#include <string_view>

namespace cugrade {

/// The accepted forms, as an example list for messages: 2026-11-21T23:59:00Z, ...
extern const char* const iso8601_accepted_forms;

/// Parses "2026-11-21T23:59:00Z", "2026-11-21T23:59:00+02:00" (also "+0200", fractional seconds
/// after '.' or ','), "2026-11-21 23:59" or "2026-11-21T23:59" (UTC), and "2026-11-21", which
/// means the end of that day, 23:59:59 UTC, so a deadline written as a date includes the whole
/// day. Letters may be lower case; spaces around the text are ignored. The error quotes the text
/// and lists the accepted forms.
[[nodiscard]] result<std::chrono::system_clock::time_point> parse_iso8601(std::string_view text);

/// "2026-11-21T23:59:00Z" (whole seconds, rounded down).
[[nodiscard]] std::string format_iso8601_utc(std::chrono::system_clock::time_point when);

} // namespace cugrade
