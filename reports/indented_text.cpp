#include "reports/indented_text.h"

#include "harness/core/untrusted_text.h"

#include <algorithm>

namespace cugrade::reports {

std::string indented_untrusted(std::string_view raw, std::string_view prefix) {
  const std::string text = escape_untrusted_text(raw);
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    out.append(prefix).append(text, start, end - start).append("\n");
    start = end + 1;
  }
  return out;
}

} // namespace cugrade::reports
