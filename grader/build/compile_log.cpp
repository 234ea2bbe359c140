#include "grader/build/compile_log.h"

#include <algorithm>
#include <regex>
#include <sstream>
#include <utility>

namespace cugrade::build {
namespace {

using replacement = std::pair<std::string, std::string>;

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) {
    return;
  }
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

void add_spellings(std::vector<replacement>& out, const std::filesystem::path& path,
                   const std::string& to) {
  if (path.empty()) {
    return;
  }
  std::error_code ignored;
  out.emplace_back(path.string(), to);
  out.emplace_back(std::filesystem::absolute(path, ignored).lexically_normal().string(), to);
  out.emplace_back(std::filesystem::weakly_canonical(path, ignored).string(), to);
}

// Longest first, so a file's full path is replaced before the directory that contains it.
std::vector<replacement> replacements(const log_context& context) {
  const std::string name = context.source.filename().string();
  std::vector<replacement> out;
  add_spellings(out, context.compiled_file, name);
  add_spellings(out, context.source, name);
  for (auto dir : {context.work_dir, context.source.parent_path()}) {
    if (!dir.empty()) {
      add_spellings(out, dir / "", "");
    }
  }
  std::erase_if(out, [](const replacement& r) { return r.first.empty() || r.first == "/"; });
  std::sort(out.begin(), out.end(), [](const replacement& a, const replacement& b) {
    return a.first.size() > b.first.size();
  });
  return out;
}

bool is_noise(const std::string& line) {
  return line.rfind("Remark: The warnings can be suppressed", 0) == 0 ||
         (line.rfind("nvcc warning", 0) == 0 && line.find("architectures") != std::string::npos);
}

// nvcc's front end writes "matmul.cu(42): error: ..."; gcc writes "matmul.cu:42:7: error: ...".
std::string unify_location(const std::string& line) {
  static const std::regex nvcc_location(R"(^([^\s()]+)\((\d+)\): )");
  return std::regex_replace(line, nvcc_location,
                            "$1:$2: ", std::regex_constants::format_first_only);
}

std::string cap(std::string text, std::size_t limit) {
  if (text.size() <= limit) {
    return text;
  }
  std::size_t cut = text.rfind('\n', limit);
  cut = cut == std::string::npos || cut == 0 ? limit : cut;
  const std::size_t left_out = text.size() - cut;
  text.resize(cut);
  return text + "\n[... " + std::to_string(left_out) + " more bytes of compiler output ...]";
}

} // namespace

std::string trim_compile_log(std::string_view raw, const log_context& context, std::size_t limit) {
  std::string text(raw);
  for (const auto& [from, to] : replacements(context)) {
    replace_all(text, from, to);
  }
  std::istringstream lines(text);
  std::string out;
  std::string line;
  bool last_blank = true; // drops leading blank lines too
  while (std::getline(lines, line)) {
    const bool blank = line.find_first_not_of(" \t\r") == std::string::npos;
    if (is_noise(line) || (blank && last_blank)) {
      continue;
    }
    out += blank ? std::string() : unify_location(line);
    out += '\n';
    last_blank = blank;
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) {
    out.pop_back();
  }
  return cap(std::move(out), limit);
}

} // namespace cugrade::build
