#include "grader/build/compile_messages.h"

#include "harness/core/words.h"

#include <algorithm>
#include <fmt/format.h>
#include <regex>
#include <sstream>

namespace cugrade::build {
namespace {

// "    43 |   code" and "       |   ^~~~": gcc's echo of the source it compiled.
bool is_source_echo(const std::string& line) {
  static const std::regex echo(R"(^\s*[0-9]*\s\|( |$))");
  return std::regex_search(line, echo);
}

// "In file included from X," and its "                 from Y:" continuation lines.
bool is_include_chain(const std::string& line) {
  static const std::regex chain(R"(^(In file included from |\s+from ))");
  return std::regex_search(line, chain);
}

// A located message in a file other than the student's (the emulator's headers, <command-line>).
bool is_elsewhere(const std::string& line, std::string_view student_file) {
  static const std::regex located(R"(^([^\s:]+):[0-9]+(:[0-9]+)?: )");
  std::smatch m;
  return std::regex_search(line, m, located) && m[1].str() != student_file;
}

std::string drop_column(const std::string& line, std::string_view student_file) {
  const std::regex column("^(" +
                          std::regex_replace(std::string(student_file),
                                             std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                          R"(:[0-9]+):[0-9]+: )");
  return std::regex_replace(line, column, "$1: ", std::regex_constants::format_first_only);
}

std::string without_references(std::string types) {
  return std::regex_replace(types, std::regex(R"(&+)"), "");
}

// The emulator's device math (cugrade_emu/device_cmath.h) deletes what nvcc refuses in device
// code: a C math function of an integer, or of a float and a double. Said as nvcc's rule.
std::string device_math_in_student_words(const std::string& text) {
  static const std::regex deleted(
      R"(use of deleted function (?:'|`|‘).*?device_cmath::(\w+)\((T|A, B)\) \[with ([^\]]*)\](?:'|’))");
  std::smatch m;
  if (!std::regex_search(text, m, deleted)) {
    return text;
  }
  const std::string name = m[1].str();
  const std::string rule = "(\"calling a constexpr __host__ function(\"" + name +
                           "\") from a __global__ function is not allowed\")";
  if (m[2].str() == "T") {
    const std::string type = std::regex_replace(m[3].str(), std::regex("^T = "), "");
    return m.prefix().str() + "`" + name + "` of " + type +
           " in device code: nvcc gives device code the float and double " + name + " only " +
           rule + ": convert the argument, as in " + name + "f((float)x) or " + name +
           "((double)x)" + m.suffix().str();
  }
  const std::string types = std::regex_replace(
      std::regex_replace(m[3].str(), std::regex("^A = "), ""), std::regex("; B = "), " and ");
  return m.prefix().str() + "`" + name + "` of " + types + " in device code: nvcc gives device " +
         "code " + name + " of two floats or of two doubles only " + rule +
         ": give both arguments one floating type, as in " + name + "f(a, b) for floats" +
         m.suffix().str();
}

} // namespace

std::string in_student_words(std::string text) {
  text = device_math_in_student_words(text);
  // The rewriter's own checks (the static shared limit) are static_asserts worded for students.
  static const std::regex own_check(R"(static assertion failed: cugrade: )");
  text = std::regex_replace(text, own_check, "");
  // The rewrite turns k<<<g, b>>>(args) into a call of a launcher object typed by the kernel's
  // parameters; a mismatch is the student's launch, so it is said in terms of the launch.
  static const std::regex launch(
      R"(no match for call to ['`‘]\((?:cugrade::emu::)?launcher<(.*)>\) \((.*)\)['’])");
  std::smatch m;
  if (std::regex_search(text, m, launch)) {
    text = m.prefix().str() + "this kernel launch passes (" + without_references(m[2].str()) +
           ") but the kernel takes (" + m[1].str() +
           "): give one argument per kernel parameter, of its type" + m.suffix().str();
  }
  static const std::regex internal(R"(cugrade::emu::(detail::)?|cugrade_emu::|cugrade::)"
                                   R"(|\(anonymous namespace\)::|\{anonymous\}::)");
  return std::regex_replace(text, internal, "");
}

std::string clean_emulation_log(std::string_view log, std::string_view student_file) {
  std::string out;
  bool skipping_note_of_elsewhere = false;
  for (const std::string& line : lines_of(log)) {
    if (is_include_chain(line) || is_source_echo(line)) {
      continue;
    }
    if (is_elsewhere(line, student_file)) {
      skipping_note_of_elsewhere = true;
      continue;
    }
    if (skipping_note_of_elsewhere && !line.empty() && line.front() == ' ') {
      continue; // an indented continuation of a message inside the emulator
    }
    skipping_note_of_elsewhere = false;
    out += in_student_words(drop_column(line, student_file)) + "\n";
  }
  while (!out.empty() && out.back() == '\n') {
    out.pop_back();
  }
  return out;
}

std::vector<compiler_message> student_messages(std::string_view log,
                                               std::string_view student_file) {
  static const std::regex located(
      R"(^([^\s:]+):([0-9]+)(?::[0-9]+)?: (?:fatal )?(error|warning)(?: #[0-9]+-D)?: (.*)$)");
  std::vector<compiler_message> out;
  for (const std::string& line : lines_of(log)) {
    std::smatch m;
    if (!std::regex_search(line, m, located) || m[1].str() != student_file) {
      continue;
    }
    compiler_message message{std::stoi(m[2].str()), m[3].str(), in_student_words(m[4].str())};
    // nvcc's host and device passes, and an expression the emulation's rewrite spells twice,
    // give one message twice: the student wrote it once.
    const bool seen = std::any_of(out.begin(), out.end(), [&](const compiler_message& o) {
      return o.line == message.line && o.severity == message.severity && o.text == message.text;
    });
    if (!seen) {
      out.push_back(std::move(message));
    }
  }
  return out;
}

std::string message_summary(const std::vector<compiler_message>& messages,
                            std::string_view severity, std::string_view student_file,
                            std::string_view source_text, std::size_t shown) {
  const std::vector<std::string> source = lines_of(source_text);
  std::string out;
  std::size_t count = 0;
  for (const compiler_message& m : messages) {
    if (m.severity != severity || ++count > shown) {
      continue;
    }
    out += fmt::format("{}:{}: {}: {}\n", student_file, m.line, m.severity, m.text);
    if (m.line >= 1 && static_cast<std::size_t>(m.line) <= source.size()) {
      out += fmt::format("  {:>4} | {}\n", m.line, source[static_cast<std::size_t>(m.line) - 1]);
    }
  }
  if (count > shown) {
    out += fmt::format("... and {} more {}s (the full compiler output is the report's build log)\n",
                       count - shown, severity);
  }
  while (!out.empty() && out.back() == '\n') {
    out.pop_back();
  }
  return out;
}

} // namespace cugrade::build
