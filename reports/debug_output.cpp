#include "reports/debug_output.h"

#include "harness/core/untrusted_text.h"

#include <fmt/format.h>

namespace cugrade::reports {

std::string debug_output_block(const test_result& t, std::string_view indent) {
  if (t.output_bytes == 0) {
    return "";
  }
  std::string out = fmt::format("{}output ({} byte{}):\n", indent, t.output_bytes,
                                t.output_bytes == 1 ? "" : "s");
  const std::string text = escape_untrusted_text(t.output);
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    out += fmt::format("{}  | {}\n", indent, std::string_view(text).substr(start, end - start));
    start = end + 1;
  }
  if (t.output_bytes > t.output.size()) {
    out += fmt::format("{}  [{} more bytes not shown]\n", indent, t.output_bytes - t.output.size());
  }
  return out;
}

} // namespace cugrade::reports
