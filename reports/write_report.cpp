#include <array>
#include <functional>

#include "harness/core/file_io.h"
#include "harness/core/words.h"
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

// An id ending in `stem` would name the file `example` names: why, for a message.
struct reserved_stem {
  std::string stem;
  std::string suffix;
  std::string whose; // e.g. "the gradescope file"
};

// Each suffix's parts before its last dot (".gradescope" of ".gradescope.json"), and the stem of
// a not-gradable report written beside a gradable one.
std::vector<reserved_stem> reserved_stems() {
  std::vector<reserved_stem> out{{std::string(not_gradable_stem),
                                  std::string(not_gradable_stem) + ".json",
                                  "the not-gradable report written beside the gradable one"}};
  for (const format_info& f : formats_table()) {
    for (auto dot = f.suffix.find('.', 1); dot != std::string_view::npos;
         dot = f.suffix.find('.', dot + 1)) {
      out.push_back({std::string(f.suffix.substr(0, dot)), std::string(f.suffix),
                     "the " + std::string(f.name) + " file"});
    }
  }
  return out;
}

} // namespace

bool is_known_format(std::string_view format) {
  return find_format(format) != nullptr;
}

std::string_view report_file_suffix(std::string_view format) {
  const format_info* f = find_format(format);
  return f == nullptr ? std::string_view() : f->suffix;
}

std::string report_id_problem(std::string_view id) {
  const std::string folded = ascii_lowercase(std::string(id));
  for (const reserved_stem& r : reserved_stems()) {
    if (folded.size() > r.stem.size() && folded.ends_with(r.stem)) {
      const std::string other(id.substr(0, id.size() - r.stem.size()));
      return "\"" + std::string(id) + "\" ends in \"" + r.stem +
             "\" (in any case), which begins a report file suffix: " + other + r.suffix + " is " +
             r.whose + " of a student \"" + other +
             "\"; give this student another id, so that no report file can belong to two students";
    }
  }
  return {};
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
