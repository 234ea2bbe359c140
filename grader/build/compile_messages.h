#pragma once
/// \file
/// What a student reads about a build: the compiler's first errors (or its warnings) at their
/// file and line, each followed by the line of their source it points at, in their own words.
/// In emulation the compiler sees the emulator's rewrite of the source: its columns, its headers
/// and its template names (`cugrade::emu::launcher<...>`) are mapped back or rephrased here, so
/// no emulator-internal name reaches a student.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::build {

/// One diagnostic the compiler gave in the student's file.
struct compiler_message {
  int line = 0;
  std::string severity; ///< "error" or "warning"
  std::string text;     ///< without the location, e.g. "expected ';' before '}' token"
};

/// A trimmed log (compile_log.h) of an emulation build, cleaned of the emulator: "In file
/// included from" chains and messages inside its headers dropped, the compiler's echo of the
/// rewritten source dropped, columns dropped (the rewrite moves them), internal names rephrased.
[[nodiscard]] std::string clean_emulation_log(std::string_view log, std::string_view student_file);

/// A message rephrased in the student's words: a launch whose arguments do not match the
/// kernel says so, and the emulator's namespaces disappear.
[[nodiscard]] std::string in_student_words(std::string text);

/// The errors and warnings of a trimmed log located in `student_file` (gcc's "file:line:col:"
/// or "file:line:" after compile_log.h unified nvcc's form), in order, each once: a message the
/// compiler repeats at the same line (nvcc's host and device passes both warn) is counted once.
[[nodiscard]] std::vector<compiler_message> student_messages(std::string_view log,
                                                             std::string_view student_file);

/// What the report shows first: up to `shown` messages of `severity`, each with its source line
/// from `source_text`, and how many more there are. Empty when there are none.
[[nodiscard]] std::string message_summary(const std::vector<compiler_message>& messages,
                                          std::string_view severity, std::string_view student_file,
                                          std::string_view source_text, std::size_t shown = 3);

} // namespace cugrade::build
