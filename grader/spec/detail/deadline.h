#pragma once
/// \file
/// Deadlines in specs: RFC 3339 times, normalised to UTC.

#include <optional>
#include <string>
#include <string_view>

namespace cugrade::spec::detail {

/// "2026-12-01T23:59:00Z" or "2026-12-02T00:59:00+01:00" -> "2026-12-01T23:59:00Z"; nullopt if
/// `text` is not such a time (seconds required, no fractions) or names a day that does not exist.
[[nodiscard]] std::optional<std::string> normalise_deadline(std::string_view text);

} // namespace cugrade::spec::detail
