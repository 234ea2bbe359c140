#pragma once
/// \file
/// Doubles that may be NaN or infinite, in JSON: finite values are numbers, the others the strings
/// "NaN", "Infinity" and "-Infinity" (JSON has no literal for them; nlohmann would write null).

#include <nlohmann/json.hpp>
#include <optional>

namespace cugrade::reports {

/// `value` as a JSON number, or its name when it is not finite.
[[nodiscard]] nlohmann::ordered_json real_to_json(double value);

/// The double `j` encodes (a number or one of the three names), or nullopt.
[[nodiscard]] std::optional<double> real_from_json(const nlohmann::json& j);

} // namespace cugrade::reports
