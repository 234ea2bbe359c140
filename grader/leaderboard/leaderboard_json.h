#pragma once
/// \file
/// leaderboard.json (schema "cugrade.leaderboard/1", reports/schema/leaderboard.schema.json,
/// compiled in), and validating a document against that schema.

#include "grader/leaderboard/leaderboard.h"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cugrade::leaderboard {

[[nodiscard]] nlohmann::ordered_json to_json(const leaderboard& board);

/// The file's text: 2-space indentation, a final newline; invalid UTF-8 becomes U+FFFD.
[[nodiscard]] std::string render_json(const leaderboard& board);

/// The leaderboard schema compiled into this library.
[[nodiscard]] const nlohmann::json& leaderboard_schema();

/// Every way `doc` breaks the schema (reports::validate's messages); empty when valid.
[[nodiscard]] std::vector<std::string> validate_leaderboard(const nlohmann::json& doc);

} // namespace cugrade::leaderboard
