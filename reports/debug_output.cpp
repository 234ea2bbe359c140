#include "reports/debug_output.h"

#include "reports/indented_text.h"

#include <fmt/format.h>

namespace cugrade::reports {

std::string debug_output_block(const test_result& t, std::string_view indent) {
  if (t.output_bytes == 0) {
    return "";
  }
  std::string out = fmt::format("{}output ({} byte{}):\n", indent, t.output_bytes,
                                t.output_bytes == 1 ? "" : "s");
  out += indented_untrusted(t.output, std::string(indent) + "  | ");
  if (t.output_bytes > t.output.size()) {
    out += fmt::format("{}  [{} more bytes not shown]\n", indent, t.output_bytes - t.output.size());
  }
  return out;
}

} // namespace cugrade::reports
