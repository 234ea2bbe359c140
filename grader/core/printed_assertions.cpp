#include "grader/core/printed_assertions.h"

#include <regex>

namespace cugrade::grader {

std::optional<printed_assertion> first_printed_assertion(std::string_view output) {
  // The path before the file's name is the grader's work folder: left out (no '/' in the name).
  static const std::regex printed(
      R"(([A-Za-z0-9_.+-]+\.cuh?):([0-9]+): [^\n]*?block: \[([0-9]+),([0-9]+),([0-9]+)\], )"
      R"(thread: \[([0-9]+),([0-9]+),([0-9]+)\] Assertion `([^\n]*)` failed\.)");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(output.begin(), output.end(), m, printed)) {
    return std::nullopt;
  }
  const auto triple = [&](int first) {
    return "(" + m[first].str() + "," + m[first + 1].str() + "," + m[first + 2].str() + ")";
  };
  return printed_assertion{m[1].str() + ":" + m[2].str(), m[9].str(), triple(6), triple(3)};
}

std::string with_printed_assertion(std::string message, std::string_view output) {
  if (const auto a = first_printed_assertion(output)) {
    message += ": assertion `" + a->expression + "` failed at " + a->location + " by thread " +
               a->thread + " of block " + a->block;
  }
  return message;
}

} // namespace cugrade::grader
