#pragma once
/// \file
/// Text for the leaderboard page: everything that came from a report or a roster (nicknames are
/// chosen by students and may be hostile) goes through html_escape, in element text and in
/// attribute values alike; numbers are formatted here too.

#include <string>
#include <string_view>

namespace cugrade::leaderboard {

/// & < > " ' as entities, after escape_untrusted_text: control characters other than tab and
/// newline and the bidirectional formatting characters shown as `\x1b`, `\u202e`, invalid UTF-8
/// replaced.
[[nodiscard]] std::string html_escape(std::string_view text);

/// A speedup with 3 decimals, e.g. "1.234".
[[nodiscard]] std::string speedup_text(double v);

/// A rate: whole numbers from 1000 on ("45714"), else 4 significant digits ("359.2", "0.5").
[[nodiscard]] std::string rate_text(double v);

} // namespace cugrade::leaderboard
