#include "grader/batch/csv_table.h"

#include "harness/core/untrusted_text.h"

#include <csv.h>

#include <charconv>

namespace cugrade::batch {

namespace {

// `field` in quotes, its quotes doubled (RFC 4180, by libcsv).
std::string in_quotes(const std::string& field) {
  std::string out(field.size() * 2 + 2, '\0');
  out.resize(csv_write(out.data(), out.size(), field.data(), field.size()));
  return out;
}

// A plain decimal number, as a spreadsheet reads one: "-5", "+1.5", "2e-3".
bool is_number(std::string_view text) {
  if (text.starts_with('+')) {
    text.remove_prefix(1); // std::from_chars takes a minus sign only
  }
  if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string_view::npos) {
    return false;
  }
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

// A spreadsheet evaluates a cell that starts with one of these (OWASP, "CSV Injection").
bool starts_a_formula(std::string_view cell) {
  return !cell.empty() &&
         std::string_view("=+-@\t\r\n").find(cell.front()) != std::string_view::npos &&
         !is_number(cell);
}

std::string spreadsheet_cell(const std::string& field, bool always_quoted) {
  std::string cell = escape_untrusted_text(field);
  if (starts_a_formula(cell)) {
    return in_quotes("'" + cell);
  }
  return !always_quoted && cell.find_first_of(",;\"\t\r\n") == std::string::npos ? cell
                                                                                 : in_quotes(cell);
}

std::string spreadsheet_line(const std::vector<std::string>& fields, bool always_quoted) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    out += (i > 0 ? "," : "") + spreadsheet_cell(fields[i], always_quoted);
  }
  return out + "\n";
}

} // namespace

result<std::vector<csv_row>> read_csv(const std::filesystem::path& file) {
  return csv::read_csv_file(file, "the roster");
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& f = fields[i];
    // csv_write always quotes; plain fields stay plain so the file reads naturally.
    out +=
        (i > 0 ? "," : "") + (f.find_first_of(",\"\r\n") == std::string::npos ? f : in_quotes(f));
  }
  return out + "\n";
}

std::string spreadsheet_csv_line(const std::vector<std::string>& fields) {
  return spreadsheet_line(fields, false);
}

std::string quoted_spreadsheet_csv_line(const std::vector<std::string>& fields) {
  return spreadsheet_line(fields, true);
}

} // namespace cugrade::batch
