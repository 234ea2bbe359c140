#include "grader/build/launcher_signatures.h"

#include "harness/core/file_io.h"
#include "harness/core/words.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace cugrade::build {
namespace {


constexpr std::string_view contract_namespace = "cugrade_contract";

// A diagnostic with what follows it (notes elsewhere, echoed source) up to the next line that
// names the student's file; the lines before the first such line are a group of their own.
std::vector<std::vector<std::string>> diagnostic_groups(std::string_view log,
                                                        std::string_view student_file) {
  const std::string start = std::string(student_file) + ":";
  std::vector<std::vector<std::string>> groups(1);
  for (std::string& line : lines_of(log)) {
    if (line.rfind(start, 0) == 0) {
      groups.emplace_back();
    }
    groups.back().push_back(std::move(line));
  }
  return groups;
}

// The notes, the echoed source and the include chain that come with a diagnostic.
bool is_part_of_diagnostic(const std::string& line) {
  return line.empty() || std::isspace(static_cast<unsigned char>(line.front())) != 0 ||
         line.rfind("In file included from", 0) == 0 ||
         line.find(contract_namespace) != std::string::npos ||
         line.find(contract_header_name) != std::string::npos;
}

bool involves_contract(const std::vector<std::string>& group) {
  return std::any_of(group.begin(), group.end(), [](const std::string& line) {
    return line.find(contract_namespace) != std::string::npos;
  });
}

// The launcher a conflict is about: the first one its first line names, else its other lines.
std::string launcher_named(const std::vector<std::string>& group,
                           const std::vector<std::string>& launchers) {
  for (const std::string& line : group) {
    for (const std::string& launcher : launchers) {
      if (find_word(line, launcher) != std::string_view::npos) {
        return launcher;
      }
    }
  }
  return {};
}

int line_number(const std::string& located, std::string_view student_file) {
  static const std::regex number(R"(^:([0-9]+))");
  std::smatch m;
  const std::string rest = located.substr(student_file.size());
  return std::regex_search(rest, m, number) ? std::stoi(m[1].str()) : 0;
}

// A parameter's type in one spelling: its name, default value, restrict qualifiers and
// top-level const left out, and a pointee's const written first ("float const* M" ->
// "const float*").
std::string normalised_type(std::string parameter) {
  parameter = parameter.substr(0, parameter.find('='));
  std::vector<std::string> tokens;
  std::string word;
  const auto flush = [&] {
    if (!word.empty() && word != "__restrict__" && word != "__restrict" && word != "restrict") {
      tokens.push_back(word);
    }
    word.clear();
  };
  for (const char c : parameter) {
    if (c == '*' || c == '&') {
      flush();
      tokens.emplace_back(1, c);
    } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  static const std::vector<std::string> type_words{"void",     "char",  "short",  "int",
                                                   "long",     "float", "double", "signed",
                                                   "unsigned", "bool",  "const",  "volatile"};
  const bool named =
      tokens.size() > 1 && is_word_char(tokens.back().front()) &&
      std::find(type_words.begin(), type_words.end(), tokens.back()) == type_words.end();
  if (named) {
    tokens.pop_back();
  }
  const auto last_star = std::find(tokens.rbegin(), tokens.rend(), "*").base();
  const bool pointer = last_star != tokens.begin();
  // Top-level const: after the last * of a pointer, anywhere in a value.
  tokens.erase(std::remove_if(pointer ? last_star : tokens.begin(), tokens.end(),
                              [](const std::string& t) { return t == "const" || t == "volatile"; }),
               tokens.end());
  std::string base;
  std::string stars;
  bool pointee_const = false;
  for (const std::string& t : tokens) {
    if (t == "*" || t == "&") {
      stars += t;
    } else if (t == "const" && stars.empty()) {
      pointee_const = true;
    } else {
      base += (base.empty() ? "" : " ") + t;
    }
  }
  return (pointee_const ? "const " : "") + base + stars;
}

// The parameters between the outermost parentheses, split at the top-level commas.
std::vector<std::string> parameters_of(const std::string& declaration) {
  const auto open = declaration.find('(');
  const auto close = declaration.rfind(')');
  std::vector<std::string> out;
  if (open == std::string::npos || close == std::string::npos || close <= open) {
    return out;
  }
  std::string current;
  int depth = 0;
  for (const char c : declaration.substr(open + 1, close - open - 1)) {
    depth += (c == '(' || c == '<' || c == '[') ? 1 : (c == ')' || c == '>' || c == ']') ? -1 : 0;
    if (c == ',' && depth == 0) {
      out.push_back(normalised_type(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!squeezed(current).empty() && squeezed(current) != "void") {
    out.push_back(normalised_type(current));
  }
  return out;
}

// What precedes a launcher's name on its line, less the words that are not its return type.
std::string return_type(const std::string& prefix) {
  static const std::regex not_the_type(
      R"re(extern\s*"C"|[{};])re"
      R"re(|\b(extern|__host__|static|inline|__forceinline__)\b)re");
  return squeezed(std::regex_replace(prefix, not_the_type, " "));
}

} // namespace

std::string contract_header(const std::vector<std::string>& launchers,
                            const std::string& parameters) {
  std::string text = "// The contract's launchers, declared by cugrade ahead of the submission.\n";
  text += "namespace " + std::string(contract_namespace) + " {\n";
  for (const std::string& launcher : launchers) {
    text += "extern \"C\" void " + launcher + "(" + parameters + ");\n";
  }
  return text + "}\n";
}

result<std::filesystem::path> write_contract_header(const std::filesystem::path& work_dir,
                                                    const std::vector<std::string>& launchers,
                                                    const std::string& parameters) {
  const auto path = work_dir / contract_header_name;
  if (auto written = write_file_atomically(path, contract_header(launchers, parameters));
      !written) {
    return fail(written.error());
  }
  return path;
}

std::vector<std::string> without_contract(std::vector<std::string> compile) {
  for (std::size_t i = 0; i + 1 < compile.size(); ++i) {
    if (compile[i] == "-include" && compile[i + 1].ends_with(contract_header_name)) {
      compile.erase(compile.begin() + static_cast<std::ptrdiff_t>(i),
                    compile.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      break;
    }
  }
  return compile;
}

signature_check check_signatures(std::string_view log, std::string_view student_file,
                                 std::string_view source_text,
                                 const std::vector<std::string>& launchers,
                                 const std::string& parameters) {
  signature_check check;
  for (const auto& group : diagnostic_groups(log, student_file)) {
    if (!involves_contract(group)) {
      for (const std::string& line : group) {
        check.log += line + "\n";
      }
      continue;
    }
    for (std::size_t i = 1; i < group.size(); ++i) { // what the compiler says after it, if any
      if (!is_part_of_diagnostic(group[i])) {
        check.log += group[i] + "\n";
      }
    }
    const std::string launcher = launcher_named(group, launchers);
    const bool seen =
        std::any_of(check.conflicts.begin(), check.conflicts.end(),
                    [&](const signature_conflict& c) { return c.launcher == launcher; });
    if (launcher.empty() || seen || group.front().rfind(std::string(student_file), 0) != 0) {
      continue;
    }
    signature_conflict conflict{launcher, line_number(group.front(), student_file), {}, false};
    conflict.declared = declaration_as_written(source_text, conflict.line, launcher);
    conflict.only_input_constness = differs_only_in_input_constness(conflict.declared, parameters);
    check.conflicts.push_back(std::move(conflict));
  }
  while (!check.log.empty() && check.log.back() == '\n') {
    check.log.pop_back();
  }
  return check;
}

std::string conflict_error(const signature_conflict& conflict, std::string_view student_file,
                           const std::string& parameters) {
  const std::string contract = "void " + conflict.launcher + "(" + parameters + ")";
  const std::string declared =
      conflict.declared.empty() ? "with other parameters" : "as `" + conflict.declared + "`";
  return std::string(student_file) + ":" + std::to_string(conflict.line) +
         ": error: " + conflict.launcher + " is declared " + declared + "; the contract's is `" +
         contract + "`";
}

std::string refused_conflicts(const signature_check& check, std::string_view student_file,
                              const std::string& parameters) {
  std::string errors;
  for (const signature_conflict& conflict : check.conflicts) {
    if (!conflict.only_input_constness) {
      errors += conflict_error(conflict, student_file, parameters) + "\n";
    }
  }
  return errors;
}

std::string declaration_as_written(std::string_view source_text, int line,
                                   const std::string& launcher) {
  const std::vector<std::string> lines = lines_of(source_text);
  for (int first = std::max(line, 1); first <= line + 2 && first <= static_cast<int>(lines.size());
       ++first) {
    const std::string& text = lines[static_cast<std::size_t>(first) - 1];
    const auto at = find_word(text, launcher);
    if (at == std::string_view::npos) {
      continue;
    }
    std::string declaration;
    int depth = 0;
    bool opened = false;
    for (std::size_t i = static_cast<std::size_t>(first) - 1;
         i < lines.size() && i < static_cast<std::size_t>(first) + 10; ++i) {
      const std::string part =
          i + 1 == static_cast<std::size_t>(first) ? text.substr(at) : lines[i];
      for (const char c : part) {
        declaration += c;
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        opened = opened || c == '(';
        if (opened && depth == 0) {
          const std::string type = return_type(text.substr(0, at));
          return (type.empty() ? "" : type + " ") + squeezed(declaration);
        }
      }
      declaration += ' ';
    }
    return {};
  }
  return {};
}

bool differs_only_in_input_constness(const std::string& declared, const std::string& parameters) {
  const std::string head = declared.substr(0, declared.find('('));
  if (squeezed(head.substr(0, head.rfind(' ') == std::string::npos ? 0 : head.rfind(' '))) !=
      "void") {
    return false;
  }
  const std::vector<std::string> theirs = parameters_of(declared);
  const std::vector<std::string> contract = parameters_of("(" + parameters + ")");
  if (theirs.size() != contract.size()) {
    return false;
  }
  bool const_left_out = false;
  for (std::size_t i = 0; i < theirs.size(); ++i) {
    const std::string& want = contract[i];
    if (theirs[i] == want) {
      continue;
    }
    if (want.rfind("const ", 0) != 0 || !want.ends_with("*") || theirs[i] != want.substr(6)) {
      return false;
    }
    const_left_out = true;
  }
  return const_left_out;
}

} // namespace cugrade::build
