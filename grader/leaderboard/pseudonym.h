#pragma once
/// \file
/// Stable pseudonyms: a keyed hash (HMAC-SHA256, OpenSSL) of the student id under the course's
/// secret salt. The same id and salt always give the same pseudonym; without the salt nobody can
/// recompute it from a roster, which a plain hash of the id would allow.

#include <string>
#include <string_view>

namespace cugrade::leaderboard {

/// Lowercase hex HMAC-SHA256 of `message` under `key` (RFC 2104).
[[nodiscard]] std::string hmac_sha256_hex(std::string_view key, std::string_view message);

/// "entrant-" and the first 10 hex digits of the HMAC of the student id under `salt`.
[[nodiscard]] std::string pseudonym(std::string_view salt, std::string_view student);

} // namespace cugrade::leaderboard
