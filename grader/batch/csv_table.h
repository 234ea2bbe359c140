#pragma once
/// \file
/// A roster read as CSV rows (grader/csv), and CSV lines written for cugrade to read back
/// (csv_line) or for a person's spreadsheet (spreadsheet_csv_line).

#include "grader/csv/csv_reader.h"
#include "harness/core/result.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::batch {

using csv::csv_row;

/// Every non-blank row of a roster, the header first (csv::read_csv_file): fails on unreadable
/// files and malformed quoting, naming the file and line.
[[nodiscard]] result<std::vector<csv_row>> read_csv(const std::filesystem::path& file);

/// One CSV line (quoted where needed by libcsv's rules) ending in "\n", the fields as they are:
/// for files cugrade reads back (a Slurm shard's roster).
[[nodiscard]] std::string csv_line(const std::vector<std::string>& fields);

/// One CSV line for a person's spreadsheet (gradebook.csv, leaderboard-identities.csv), each
/// field made a cell that shows as text and never runs (OWASP's guidance on CSV injection):
/// - its controls escaped and invalid UTF-8 replaced (escape_untrusted_text);
/// - a field that starts with =, +, -, @, a tab, a carriage return or a newline and is not a
///   number gets a leading ' and is quoted ("'=WEBSERVICE(...)"); a number ("-5", "+1.5e3")
///   stays as it is;
/// - a field holding a comma, a semicolon (another spreadsheet's separator), a quote or a line
///   break or a tab is quoted, so nothing inside it starts a cell of its own.
[[nodiscard]] std::string spreadsheet_csv_line(const std::vector<std::string>& fields);

/// spreadsheet_csv_line with every field in quotes, as Blackboard's Grade Center upload wants
/// a comma-separated file ("data in each column ... must be contained within a quote
/// character").
[[nodiscard]] std::string quoted_spreadsheet_csv_line(const std::vector<std::string>& fields);

} // namespace cugrade::batch
