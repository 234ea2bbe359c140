#include "grader/core/printed_cuda_checks.h"

#include "harness/core/words.h"

#include <regex>

namespace cugrade::grader {

namespace {

constexpr std::size_t longest_line = 200;
// Longer lines are not read: no check prints one and no call is written on one, and std::regex
// recurses per character of a long identifier (a hostile line must not overflow the stack).
constexpr std::size_t longest_read = 2000;

bool names_the_error(std::string_view line, std::string_view name, std::string_view words) {
  return (!name.empty() && line.find(name) != std::string_view::npos) ||
         (!words.empty() && line.find(words) != std::string_view::npos);
}

// The first runtime call the line names that is not a query of the error itself.
std::optional<std::string> call_named_in(const std::string& line) {
  if (line.size() > longest_read || line.find("cuda") == std::string::npos) {
    return std::nullopt;
  }
  static const std::regex call(R"(\b(cuda[A-Z][A-Za-z0-9_]*)\s*\()");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), call); it != std::sregex_iterator();
       ++it) {
    const std::string name = (*it)[1].str();
    if (name != "cudaGetLastError" && name != "cudaPeekAtLastError" &&
        name != "cudaGetErrorString" && name != "cudaGetErrorName") {
      return name;
    }
  }
  return std::nullopt;
}

// "reduction.cu:57" from a printed __FILE__ and __LINE__ ("reduction.cu:57", or gpuErrchk's
// "reduction.cu 57"), without the grader's folders.
std::string source_line_in(const std::string& line) {
  if (line.size() > longest_read) {
    return {};
  }
  static const std::regex at(R"(([A-Za-z0-9_.+-]+\.cuh?)(?::|[ \t]+)([0-9]+)\b)");
  std::smatch m;
  return std::regex_search(line, m, at) ? m[1].str() + ":" + m[2].str() : std::string();
}

// The line as a hint quotes it: trimmed, cut, and printable ASCII only (a student's output may
// hold any bytes, a report holds UTF-8).
std::string quotable(std::string_view line) {
  const auto first = line.find_first_not_of(" \t\r");
  const auto last = line.find_last_not_of(" \t\r");
  if (first == std::string_view::npos) {
    return {};
  }
  std::string text(line.substr(first, last - first + 1));
  if (text.size() > longest_line) {
    text = text.substr(0, longest_line - 3) + "...";
  }
  for (char& c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte > 0x7e) {
      c = '?';
    }
  }
  return text;
}

} // namespace

std::optional<printed_cuda_check> find_printed_cuda_check(std::string_view output,
                                                          std::string_view error_name,
                                                          std::string_view error_words) {
  for (const std::string& line : lines_of(output)) {
    if (!names_the_error(line, error_name, error_words)) {
      continue;
    }
    const auto call = call_named_in(line);
    std::string location = source_line_in(line);
    if (call || !location.empty()) {
      return printed_cuda_check{call.value_or(""), quotable(line), std::move(location)};
    }
  }
  return std::nullopt;
}

std::vector<runtime_call_site> runtime_call_sites(std::string_view source) {
  std::vector<runtime_call_site> sites;
  const std::vector<std::string> lines = lines_of(source);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (const auto call = call_named_in(lines[i])) {
      sites.push_back({static_cast<int>(i + 1), *call, quotable(lines[i])});
    }
  }
  return sites;
}

} // namespace cugrade::grader
