#pragma once
/// \file
/// What a test looks for in text meant for a person (a terminal, a .txt report, a CSV, a page):
/// anything a terminal would act on or that reorders the line. Written independently of
/// harness/core/untrusted_text.h, so a bug there cannot hide itself here.

#include <array>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::surfaces {

/// Each raw control in `text`, e.g. "ESC (0x1b) at byte 12: ...error: #error ": C0 controls other
/// than newline and tab, DEL, C1 controls (as UTF-8, C2 80 to C2 9F, or as a raw 8-bit byte that
/// no lead byte precedes) and the bidirectional formatting characters (U+061C, U+200E, U+200F,
/// U+202A to U+202E, U+2066 to U+2069). Empty when there is none.
[[nodiscard]] inline std::vector<std::string> terminal_controls_in(std::string_view text) {
  const auto byte = [&](std::size_t i) {
    return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u;
  };
  std::vector<std::string> found;
  const auto note = [&](std::size_t at, const std::string& what) {
    const std::size_t from = at < 24 ? 0 : at - 24;
    found.push_back(what + " at byte " + std::to_string(at) + ": ..." +
                    std::string(text.substr(from, at - from)));
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned b = byte(i);
    const unsigned before = i == 0 ? 0u : byte(i - 1);
    if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f) {
      std::array<char, 8> code{};
      std::snprintf(code.data(), code.size(), "0x%02x", b);
      note(i, std::string(b == 0x1b ? "ESC " : "control ") + code.data());
    } else if (b >= 0x80 && b < 0xa0 && (before == 0xc2 || before < 0x80)) {
      note(i, before == 0xc2 ? "C1 control (UTF-8)" : "raw C1 byte");
    } else if ((b == 0xd8 && byte(i + 1) == 0x9c) ||
               (b == 0xe2 && byte(i + 1) == 0x80 &&
                (byte(i + 2) == 0x8e || byte(i + 2) == 0x8f ||
                 (byte(i + 2) >= 0xaa && byte(i + 2) <= 0xae))) ||
               (b == 0xe2 && byte(i + 1) == 0x81 && byte(i + 2) >= 0xa6 && byte(i + 2) <= 0xa9)) {
      note(i, "bidirectional formatting character");
    }
  }
  return found;
}

} // namespace cugrade::surfaces
