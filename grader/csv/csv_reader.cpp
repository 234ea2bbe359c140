#include "grader/csv/csv_reader.h"

#include <csv.h>

#include <fstream>
#include <memory>

namespace cugrade::csv {

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

} // namespace

result<std::vector<csv_row>> read_csv_file(const std::filesystem::path& file,
                                           const std::string& what) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return fail(file.string() + ": cannot read " + what + "; check the path");
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

} // namespace cugrade::csv
