#include "grader/leaderboard/html_text.h"

#include "harness/core/untrusted_text.h"

#include <fmt/format.h>

namespace cugrade::leaderboard {

std::string html_escape(std::string_view raw) {
  // Controls become visible escapes first (tab and newline stay), bidirectional overrides too.
  const std::string text = escape_untrusted_text(raw);
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out.push_back(c);
    }
  }
  return out;
}

std::string speedup_text(double v) {
  return fmt::format("{:.3f}", v);
}

std::string rate_text(double v) {
  return v >= 1000 ? fmt::format("{:.0f}", v) : fmt::format("{:.4g}", v);
}

} // namespace cugrade::leaderboard
