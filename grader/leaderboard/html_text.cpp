#include "grader/leaderboard/html_text.h"

#include <fmt/format.h>

namespace cugrade::leaderboard {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default:
      if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') {
        out.push_back(c);
      }
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
