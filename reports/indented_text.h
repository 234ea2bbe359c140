#pragma once
/// \file
/// Text from a submission, a compiler or a runner laid out under a heading: escaped whole
/// (escape_untrusted_text, so a CRLF line end loses its CR) and each line after a prefix.

#include <string>
#include <string_view>

namespace cugrade::reports {

/// Each line of `raw`, escaped, after `prefix` and ending in a newline; "" for "".
[[nodiscard]] std::string indented_untrusted(std::string_view raw, std::string_view prefix);

} // namespace cugrade::reports
