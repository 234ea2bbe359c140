#include "grader/core/source_lines.h"

#include "grader/process/process.h"

#include <sstream>

namespace cugrade::grader {

std::optional<std::string> source_line_of(const std::filesystem::path& object,
                                          const std::string& pc_offset) {
  const auto addr2line = process::find_program("addr2line");
  if (!addr2line || object.empty() || pc_offset.empty()) {
    return std::nullopt;
  }
  process::spawn_options opts;
  opts.argv = {addr2line->string(), "-f", "-C", "-e", object.string(), pc_offset};
  opts.time_limit_seconds = 10;
  const auto r = process::run_process(opts);
  if (!r || !r->succeeded()) {
    return std::nullopt;
  }
  std::istringstream lines(r->stdout_text);
  std::string function;
  std::string location;
  std::getline(lines, function);
  std::getline(lines, location);
  const auto colon = location.rfind(':');
  if (location.empty() || location.starts_with("??") || colon == std::string::npos) {
    return std::nullopt;
  }
  // Keep the file name only: the student knows their own file; the build folder is noise.
  const auto file = std::filesystem::path(location.substr(0, colon)).filename().string();
  std::string line = location.substr(colon + 1);
  line = line.substr(0, line.find(' '));
  std::string text = file + ":" + line;
  if (!function.empty() && function != "??") {
    text += " (in " + function + ")";
  }
  return text;
}

} // namespace cugrade::grader
