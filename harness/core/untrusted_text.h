#pragma once
/// \file
/// Text from a submission, a compiler or a runner, made safe to put in front of a person: a
/// terminal, a `.txt` report, a CSV cell or an HTML page. A student controls such text (a
/// compiler quotes their `#error` line, a runner's stderr is theirs), and a terminal obeys the
/// control sequences in it: OSC 52 writes the clipboard, OSC 8 makes hyperlinks, CSI clears the
/// screen or recolours it. Bidirectional overrides make a line read differently than it is.
/// Every writer that shows such text passes it through escape_untrusted_text; JSON reports keep
/// the data itself (JSON escapes controls on its own).

#include <string>
#include <string_view>

namespace cugrade {

/// What escape_untrusted_text does with newlines and tabs.
enum class line_breaks {
  keep,  ///< newline and tab stay (multi-line text: a compiler log, a report)
  escape ///< newline and tab become `\n` and `\t` too (a one-line display)
};

/// `text` with nothing a terminal or a reader would take for anything but text:
/// - C0 controls (other than newline and tab), DEL and C1 controls (U+0080 to U+009F) become
///   visible escapes of their code: ESC is `\x1b`, DEL `\x7f`, U+009B (CSI) `\x9b`; a carriage
///   return right before a newline (a CRLF line end) is dropped;
/// - the bidirectional formatting characters (the embeddings and overrides U+202A to U+202E, the
///   isolates U+2066 to U+2069 and the marks LRM U+200E, RLM U+200F and ALM U+061C, which are
///   invisible) become `\u202e`-style escapes;
/// - bytes that are not UTF-8 (a stray byte, a truncated or overlong sequence, a surrogate)
///   become U+FFFD;
/// - everything else, valid UTF-8 included (accents, CJK, emoji and their joiners), is unchanged.
/// Backslashes are left alone: `\x1b` in the result may have been those four characters, but the
/// result never holds the control itself.
[[nodiscard]] std::string escape_untrusted_text(std::string_view text,
                                                line_breaks breaks = line_breaks::keep);

} // namespace cugrade
