#pragma once
/// \file
/// SHA-256 (FIPS 180-4), used to fingerprint assignment specs in reports (`spec_sha256`).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cugrade {

/// The lowercase hex SHA-256 digest of `data`.
[[nodiscard]] std::string sha256_hex(std::string_view data);

} // namespace cugrade
