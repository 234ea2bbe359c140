// XML escaping for the JUnit writer. Kept, rather than writing the XML with pugixml, because
// pugixml writes what it is given: a control character from a compiler log becomes a character
// reference such as &#27; and bytes that are not UTF-8 pass through, and both make the file
// ill-formed XML 1.0, which JUnit readers (CI servers, xmllint) reject. Here such bytes become
// U+FFFD, so a student's log can never break the report (tests/reports/junit_test.cpp).
#include <cstdint>

#include "reports/writers.h"

namespace cugrade::reports {
namespace {

constexpr std::string_view replacement = "\xEF\xBF\xBD"; // U+FFFD

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
  const std::uint8_t lead = byte(i);
  const std::size_t n = lead < 0x80           ? 1
                        : (lead >> 5) == 0x6  ? 2
                        : (lead >> 4) == 0xE  ? 3
                        : (lead >> 3) == 0x1E ? 4
                                              : 0;
  if (n == 0 || i + n > text.size()) {
    return 0;
  }
  std::uint32_t cp = n == 1 ? lead : lead & (0x7Fu >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) {
      return 0;
    }
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  const bool overlong = cp < smallest[n];
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  // U+FFFE and U+FFFF are not XML characters either.
  const bool excluded = cp == 0xFFFE || cp == 0xFFFF || cp > 0x10FFFF;
  return overlong || surrogate || excluded ? 0 : n;
}

std::string_view entity(char c, bool in_attribute) {
  switch (c) {
  case '&':
    return "&amp;";
  case '<':
    return "&lt;";
  case '>':
    return "&gt;";
  case '"':
    return "&quot;";
  case '\'':
    return "&apos;";
  case '\t':
    return in_attribute ? "&#9;" : "\t";
  case '\n':
    return in_attribute ? "&#10;" : "\n";
  case '\r':
    return "&#13;";
  default:
    return {};
  }
}

} // namespace

std::string xml_escape(std::string_view text, bool in_attribute) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += replacement;
      ++i;
      continue;
    }
    if (n == 1) {
      const char c = text[i];
      if (const std::string_view e = entity(c, in_attribute); !e.empty()) {
        out += e;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        out += replacement; // XML 1.0 forbids C0 controls outright
      } else {
        out += c;
      }
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

} // namespace cugrade::reports
