#include "grader/core/source_lines.h"

#include "grader/build/compile_messages.h"
#include "grader/process/process.h"

#include <sstream>

namespace cugrade::grader {

namespace {

// The student's file as they know it: in emulation the compiled file is the emulator's rewrite
// (<name>.emu.cpp), which keeps the student's lines. Nullopt for any other file (the emulator's
// own headers and sources), which no student should be pointed at.
std::optional<std::string> student_file(const std::string& path) {
  auto file = std::filesystem::path(path).filename().string();
  constexpr std::string_view rewrite_suffix = ".emu.cpp";
  if (file.ends_with(rewrite_suffix)) {
    return file.replace(file.size() - rewrite_suffix.size(), rewrite_suffix.size(), ".cu");
  }
  if (file.ends_with(".cu")) {
    return file;
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> source_line_of(const std::filesystem::path& object,
                                          const std::string& pc_offset) {
  const auto addr2line = process::find_program("addr2line");
  if (!addr2line || object.empty() || pc_offset.empty()) {
    return std::nullopt;
  }
  process::spawn_options opts;
  // -i: the whole inline chain, innermost first, so an emulator helper inlined into the
  // student's kernel still leads to the student's line.
  opts.argv = {addr2line->string(), "-f", "-C", "-i", "-e", object.string(), pc_offset};
  opts.time_limit_seconds = 10;
  const auto r = process::run_process(opts);
  if (!r || !r->succeeded()) {
    return std::nullopt;
  }
  std::istringstream lines(r->stdout_text);
  std::string function;
  std::string location;
  while (std::getline(lines, function) && std::getline(lines, location)) {
    const auto colon = location.rfind(':');
    if (location.empty() || location.starts_with("??") || colon == std::string::npos) {
      continue;
    }
    const auto file = student_file(location.substr(0, colon));
    if (!file) {
      continue;
    }
    std::string line = location.substr(colon + 1);
    std::string text = *file + ":" + line.substr(0, line.find(' '));
    if (!function.empty() && function != "??") {
      text += " (in " + build::in_student_words(function) + ")";
    }
    return text;
  }
  return std::nullopt;
}

} // namespace cugrade::grader
