#pragma once
/// \file
/// The symbol policy's violations in the words of what the student wrote: the call as written
/// and its line ("std::fopen at histogram.cu:12 (files are not allowed)"), the student's
/// `#include` when the call is made inside a library header's code ("#include <future> at
/// scan.cu:3 (threads are not allowed)"), or the definition's line ("defines malloc at
/// matmul.cu:4, which the runtime already defines"); never a mangled or internal name. Only
/// what the debug information cannot place at all is said by the symbol's readable name.

#include "grader/build/symbol_policy.h"
#include "grader/build/symbol_sites.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace cugrade::build {

/// Where the object's debug information and the preprocessor place the violations.
struct violation_places {
  site_map references;                                ///< reference_sites()
  std::map<std::string, source_position> definitions; ///< definition_sites()
  std::map<std::string, int> include_lines;           ///< includes_by_header()
};

/// The student's source as messages show it.
struct student_source {
  std::string file; ///< the file name, e.g. "matmul.cu"
  std::string text;
  /// The name of the file the compiler read when it is another (the emulator's rewrite, which
  /// keeps every line where it was): debug information may name it for the student's lines.
  std::string compiled_file;
};

/// Each violation described once, in source order; at most `per_reason` places for each reason
/// (the first ones), so a call repeated a hundred times is not a hundred messages.
[[nodiscard]] std::vector<std::string>
describe_violations(const std::vector<policy_violation>& violations, const violation_places& places,
                    const student_source& source, std::size_t per_reason = 4);

/// The headers whose code makes the only calls of some reason: their `#include` lines are needed
/// (includes_by_header) to place those calls. Empty when every reason has a call in the
/// student's own lines.
[[nodiscard]] std::set<std::string>
headers_to_place(const std::vector<policy_violation>& violations, const violation_places& places,
                 const student_source& source);

/// The words a student may have written for a symbol, innermost first: "fopen" for fopen;
/// "now", "steady_clock", "chrono" for std::chrono::_V2::steady_clock::now(); "basic_ofstream",
/// "ofstream" for a member of std::basic_ofstream<char>. Internal names (a leading _) are left out.
[[nodiscard]] std::vector<std::string> source_words(const std::string& mangled);

/// The call as written on `line` for the first of `words` found there as a whole word, with the
/// names it is qualified by ("std::fopen", "worker.join"); empty when none is on the line.
[[nodiscard]] std::string call_as_written(const std::string& line,
                                          const std::vector<std::string>& words);

} // namespace cugrade::build
