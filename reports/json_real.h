#pragma once
/// \file
/// Doubles that may be NaN or infinite, in JSON: finite values are numbers, the others the strings
/// "NaN", "Infinity" and "-Infinity" (JSON has no literal for them; nlohmann would write null).

#include <nlohmann/json.hpp>

namespace cugrade::reports {

/// `value` as a JSON number, or its name when it is not finite.
[[nodiscard]] nlohmann::ordered_json real_to_json(double value);

} // namespace cugrade::reports
