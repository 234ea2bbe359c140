#include "harness/core/untrusted_text.h"

// ICU's UTF-8 macros decode (header-only: nothing of ICU is linked): ill-formed input gives
// U+FFFD one maximal invalid subsequence at a time, as the Unicode standard recommends.
#include <unicode/utf8.h>

#include <cstddef>
#include <cstdint>

namespace cugrade {

namespace {

constexpr std::string_view replacement_character = "\xEF\xBF\xBD"; // U+FFFD

bool is_control(UChar32 c) {
  return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f);
}

// The characters that reorder text on display (Unicode's bidirectional formatting characters).
bool is_bidi_format(UChar32 c) {
  return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
         (c >= 0x2066 && c <= 0x2069);
}

// `\x1b` for controls (one byte's worth), `\u202e` for the bidirectional characters.
void append_escape(std::string& out, UChar32 c) {
  constexpr std::string_view hex = "0123456789abcdef";
  const int digits = c > 0xff ? 4 : 2;
  out += digits == 4 ? "\\u" : "\\x";
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
    out.push_back(hex[static_cast<std::size_t>((c >> shift) & 0xf)]);
  }
}

// Newline and tab: kept, or written as `\n` and `\t` on one-line displays.
void append_break(std::string& out, UChar32 c, line_breaks breaks) {
  if (breaks == line_breaks::keep) {
    out.push_back(static_cast<char>(c));
  } else {
    out += c == '\n' ? "\\n" : "\\t";
  }
}

} // namespace

std::string escape_untrusted_text(std::string_view text, line_breaks breaks) {
  std::string out;
  out.reserve(text.size());
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  const auto length = static_cast<std::ptrdiff_t>(text.size());
  std::ptrdiff_t next = 0;
  while (next < length) {
    const std::ptrdiff_t start = next;
    UChar32 c = 0;
    U8_NEXT(bytes, next, length, c);
    if (c < 0) {
      out += replacement_character;
    } else if (c == '\n' || c == '\t') {
      append_break(out, c, breaks);
    } else if (c == '\r' && next < length && bytes[next] == '\n') {
      continue; // a CRLF line end: the newline alone says it
    } else if (is_control(c) || is_bidi_format(c)) {
      append_escape(out, c);
    } else {
      out.append(
          text.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(next - start)));
    }
  }
  return out;
}

} // namespace cugrade
