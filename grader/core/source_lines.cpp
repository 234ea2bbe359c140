#include "grader/core/source_lines.h"

#include "grader/build/compile_messages.h"
#include "grader/process/process.h"
#include "harness/core/file_io.h"

#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

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

std::optional<std::string> run_tool(const char* tool, std::vector<std::string> args) {
  const auto program = process::find_program(tool);
  if (!program) {
    return std::nullopt;
  }
  process::spawn_options opts;
  opts.argv = {program->string()};
  opts.argv.insert(opts.argv.end(), args.begin(), args.end());
  opts.time_limit_seconds = 10;
  const auto r = process::run_process(opts);
  if (!r || !r->succeeded()) {
    return std::nullopt;
  }
  return r->stdout_text;
}

std::uint64_t parse_address(const std::string& text) {
  try {
    return std::stoull(text, nullptr, 16);
  } catch (const std::exception&) {
    return ~std::uint64_t{0};
  }
}

} // namespace

std::optional<int> first_statement_line(const std::string& decoded_line_table,
                                        const std::string& file, std::uint64_t address) {
  std::istringstream rows(decoded_line_table);
  std::string row;
  while (std::getline(rows, row)) {
    std::istringstream fields(row);
    std::string name, line, at;
    if (!(fields >> name >> line >> at) || name != file || !at.starts_with("0x")) {
      continue;
    }
    if (parse_address(at) == address) {
      try {
        return std::stoi(line);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

namespace {

// The same object (its path and file_stamp: size, modification time, inode) and offset always
// give the same answer, and a kernel that faults faults again in every runner started after it:
// one answer per fault site, rather than an addr2line and an objdump (about 0.1 s) for every case
// that faults there.
using site_key = std::tuple<std::string, std::string, std::string>;

std::optional<site_key> key_of(const std::filesystem::path& object, const std::string& pc_offset) {
  std::string stamp = file_stamp(object);
  if (stamp.empty()) {
    return std::nullopt;
  }
  return site_key{object.string(), std::move(stamp), pc_offset};
}

// addr2line, then objdump's line table, for one fault site.
std::optional<std::string> look_up(const std::filesystem::path& object,
                                   const std::string& pc_offset) {
  // -i: the whole inline chain, innermost first, so an emulator helper inlined into the
  // student's kernel still leads to the student's line.
  const auto answer = run_tool("addr2line", {"-f", "-C", "-i", "-e", object.string(), pc_offset});
  if (!answer) {
    return std::nullopt;
  }
  std::istringstream lines(*answer);
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
    line = line.substr(0, line.find(' '));
    // Where optimised code starts several statements at the faulting instruction (a load folded
    // into the next statement's call), addr2line names the last; the access is the first one's.
    const auto compiled = std::filesystem::path(location.substr(0, colon)).filename().string();
    if (const auto table = run_tool("objdump", {"--dwarf=decodedline", object.string()})) {
      if (const auto first = first_statement_line(*table, compiled, parse_address(pc_offset))) {
        line = std::to_string(*first);
      }
    }
    std::string text = *file + ":" + line;
    if (!function.empty() && function != "??") {
      text += " (in " + build::in_student_words(function) + ")";
    }
    return text;
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> source_line_of(const std::filesystem::path& object,
                                          const std::string& pc_offset) {
  if (object.empty() || pc_offset.empty()) {
    return std::nullopt;
  }
  static std::mutex lock;
  static std::map<site_key, std::optional<std::string>> known;
  const auto key = key_of(object, pc_offset);
  if (key) {
    const std::lock_guard hold(lock);
    if (const auto it = known.find(*key); it != known.end()) {
      return it->second;
    }
  }
  auto line = look_up(object, pc_offset);
  if (key) {
    const std::lock_guard hold(lock);
    if (known.size() >= 4096) { // a long batch: forget the old sites rather than grow
      known.clear();
    }
    known.emplace(*key, line);
  }
  return line;
}

} // namespace cugrade::grader
