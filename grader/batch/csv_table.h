#pragma once
/// \file
/// A CSV file as rows of fields (libcsv, RFC 4180 quoting), each row with the line it starts on.

#include "harness/core/result.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::batch {

struct csv_row {
  std::size_t line = 0; ///< 1-based line where the row starts
  std::vector<std::string> fields;
};

/// Every non-blank row, the header first. Fails on unreadable files and malformed quoting,
/// naming the file and line.
[[nodiscard]] result<std::vector<csv_row>> read_csv(const std::filesystem::path& file);

/// One CSV line (quoted where needed by libcsv's rules) ending in "\n".
[[nodiscard]] std::string csv_line(const std::vector<std::string>& fields);

} // namespace cugrade::batch
