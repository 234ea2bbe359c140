#include "grader/batch/csv_table.h"

#include "harness/core/untrusted_text.h"

#include <csv.h>

#include <charconv>
#include <fstream>
#include <memory>
#include <sstream>

namespace cugrade::batch {

namespace {

// The state libcsv's callbacks fill in: fields of the row being read and the finished rows.
struct reader {
  std::vector<csv_row> rows;
  csv_row current;
  std::size_t line = 1;
  bool in_row = false;
};

void on_field(void* data, std::size_t size, void* context) {
  auto& r = *static_cast<reader*>(context);
  if (!r.in_row) {
    r.in_row = true;
    r.current.line = r.line;
  }
  r.current.fields.emplace_back(data == nullptr ? "" : std::string(static_cast<char*>(data), size));
}

void on_row_end(int /*terminator*/, void* context) {
  auto& r = *static_cast<reader*>(context);
  r.rows.push_back(std::move(r.current));
  r.current = {};
  r.in_row = false;
}

struct parser_deleter {
  void operator()(csv_parser* p) const {
    csv_free(p);
    delete p;
  }
};

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
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return fail(file.string() + ": cannot read the roster; check the path");
  }
  std::unique_ptr<csv_parser, parser_deleter> parser(new csv_parser);
  if (csv_init(parser.get(), CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL | CSV_EMPTY_IS_NULL) !=
      0) {
    return fail("cannot initialise the CSV parser (out of memory)");
  }
  reader r;
  std::string text;
  // One physical line at a time, so each row knows the line it started on.
  while (std::getline(in, text)) {
    text.push_back('\n');
    if (csv_parse(parser.get(), text.data(), text.size(), on_field, on_row_end, &r) !=
        text.size()) {
      return fail(file.string() + ":" + std::to_string(r.line) + ": " +
                  csv_strerror(csv_error(parser.get())) +
                  " (a quote inside a field must be doubled, and a quoted field must be closed)");
    }
    ++r.line;
  }
  if (csv_fini(parser.get(), on_field, on_row_end, &r) != 0) {
    return fail(file.string() + ":" + std::to_string(r.line - 1) +
                ": the file ends inside a quoted field; close the quote");
  }
  return r.rows;
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
