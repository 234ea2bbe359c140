#include "grader/build/include_map.h"

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

namespace cugrade::build {
namespace {

struct linemarker {
  int line = 0;
  std::string file;
  bool returns = false; ///< flag 2: back in the including file after an include
};

bool parse_linemarker(const std::string& text, linemarker& out) {
  static const std::regex marker(R"re(^# ([0-9]+) "((?:[^"\\]|\\.)*)"((?: [0-9])*)\s*$)re");
  std::smatch m;
  if (!std::regex_match(text, m, marker)) {
    return false;
  }
  out.line = std::stoi(m[1].str());
  out.file = m[2].str();
  const std::string flags = m[3].str();
  out.returns = flags.find(" 2") != std::string::npos;
  return true;
}

bool is_student_file(const std::string& file, std::string_view student_file) {
  return std::filesystem::path(file).filename() == std::filesystem::path(student_file);
}

} // namespace

std::map<std::string, int> includes_by_header(std::string_view preprocessed,
                                              std::string_view student_file) {
  std::map<std::string, int> out;
  std::set<std::string> pending; // headers entered since the student's last #include began
  bool in_student = false;
  std::istringstream lines{std::string(preprocessed)};
  linemarker marker;
  for (std::string text; std::getline(lines, text);) {
    if (text.empty() || text.front() != '#' || !parse_linemarker(text, marker)) {
      continue;
    }
    if (is_student_file(marker.file, student_file)) {
      if (marker.returns) { // the #include was on the line before the one it returns to
        for (const std::string& header : pending) {
          out.emplace(header, marker.line - 1);
        }
      }
      pending.clear();
      in_student = true;
    } else if (in_student || !pending.empty()) { // inside one of the student's #includes
      in_student = false;
      pending.insert(marker.file);
    }
  }
  return out;
}

} // namespace cugrade::build
