#include <array>
#include <functional>

#include "harness/core/file_io.h"
#include "reports/report_json.h"
#include "reports/writers.h"

namespace cugrade::reports {
namespace {

struct format_info {
  std::string_view name;
  std::string_view suffix;
  std::function<std::string(const redacted_report&)> render;
};

const std::array<format_info, 4>& formats_table() {
  static const std::array<format_info, 4> table{{
      {"json", ".json", render_json},
      {"gradescope", ".gradescope.json", render_gradescope},
      {"junit", ".junit.xml", render_junit},
      // Files are read later, often not on a terminal: never colour.
      {"text", ".txt", [](const redacted_report& r) { return render_text(r, false); }},
  }};
  return table;
}

const format_info* find_format(std::string_view name) {
  for (const format_info& f : formats_table()) {
    if (f.name == name) {
      return &f;
    }
  }
  return nullptr;
}

} // namespace

bool is_known_format(std::string_view format) {
  return find_format(format) != nullptr;
}

written write_report(const report& r, const std::filesystem::path& out_dir,
                     const std::string& basename, const std::vector<std::string>& formats) {
  written result;
  for (const std::string& name : formats) {
    if (!is_known_format(name)) {
      result.error = "unknown report format \"" + name + "\" (use json, gradescope, junit, text)";
      return result;
    }
  }
  const redacted_report shown = redact(r);
  for (const std::string& name : formats) {
    const format_info& f = *find_format(name);
    const std::filesystem::path path = out_dir / (basename + std::string(f.suffix));
    if (const auto done = write_file_atomically(path, f.render(shown)); !done) {
      result.error = done.error();
      return result;
    }
    result.files.push_back(path);
  }
  return result;
}

} // namespace cugrade::reports
