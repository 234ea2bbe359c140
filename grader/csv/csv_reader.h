#pragma once
/// \file
/// Reading a CSV file as rows of fields (libcsv, RFC 4180 quoting), each row with the line it
/// starts on: a class roster (grader/batch) and Nsight Compute's metric tables (grader/perf).

#include "harness/core/result.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::csv {

struct csv_row {
  std::size_t line = 0; ///< 1-based line where the row starts
  std::vector<std::string> fields;
};

/// Every non-blank row, the header first. Fails on unreadable files and malformed quoting,
/// naming the file and line; `what` says what the file is in the message ("the roster").
[[nodiscard]] result<std::vector<csv_row>> read_csv_file(const std::filesystem::path& file,
                                                         const std::string& what);

} // namespace cugrade::csv
