#include "grader/build/forbidden_uses.h"

#include "grader/build/symbols.h"
#include "harness/core/words.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <tuple>

namespace cugrade::build {
namespace {


// One place a reason is reported at.
struct entry {
  int line = 0; ///< 0: not placed
  std::string text;
  bool operator<(const entry& other) const {
    return std::tie(line, text) < std::tie(other.line, other.text);
  }
  bool operator==(const entry&) const = default;
};

// "vtable for std::basic_ofstream<char, ...>" and "std::ostream& std::__ostream_insert<...>(...)"
// -> "std::basic_ofstream", "std::__ostream_insert": the name without what the compiler adds
// around it, template arguments, parameters or return type.
std::string qualified_name(std::string demangled) {
  for (const char* prefix : {"vtable for ", "VTT for ", "typeinfo for ", "typeinfo name for ",
                             "guard variable for ", "non-virtual thunk to ", "virtual thunk to "}) {
    if (demangled.rfind(prefix, 0) == 0) {
      demangled.erase(0, std::string_view(prefix).size());
    }
  }
  if (const auto op = demangled.find("operator"); op != std::string::npos) {
    demangled.resize(op); // "std::basic_ostream::operator<<": the class says enough
  }
  std::string flat;
  int depth = 0;
  for (const char c : demangled) {
    if (c == '(' && depth == 0) {
      break;
    }
    depth += (c == '<' || c == '(') ? 1 : (c == '>' || c == ')') ? -1 : 0;
    if (depth == 0 && c != '>' && c != ')') {
      flat += c;
    }
  }
  while (!flat.empty() && (flat.back() == ':' || flat.back() == ' ')) {
    flat.pop_back();
  }
  return flat.substr(flat.rfind(' ') == std::string::npos ? 0 : flat.rfind(' ') + 1);
}

std::vector<std::string> components(const std::string& qualified) {
  std::vector<std::string> parts;
  for (std::size_t at = 0; at <= qualified.size();) {
    const auto next = qualified.find("::", at);
    parts.push_back(qualified.substr(at, next == std::string::npos ? next : next - at));
    at = next == std::string::npos ? qualified.size() + 1 : next + 2;
  }
  return parts;
}

// The symbol's readable name without internal parts: "std::thread",
// "std::chrono::steady_clock::now".
std::string readable_name(const std::string& mangled) {
  if (mangled.rfind("_Z", 0) != 0) {
    return mangled;
  }
  std::string out;
  for (const std::string& part : components(qualified_name(demangle(mangled)))) {
    if (!part.empty() && part.front() != '_') {
      out += (out.empty() ? "" : "::") + part;
    }
  }
  return out.empty() ? "a function inside the C++ library" : out;
}

std::string line_at(const std::vector<std::string>& lines, int line) {
  return line >= 1 && static_cast<std::size_t>(line) <= lines.size()
             ? lines[static_cast<std::size_t>(line) - 1]
             : std::string();
}

// The line as a short quote, or nothing when it holds no name (a closing brace, where a
// destructor runs, says nothing about what was written).
std::string quoted(const std::string& line) {
  const std::string text = squeezed(line);
  if (std::none_of(text.begin(), text.end(),
                   [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; })) {
    return {};
  }
  return "`" + (text.size() > 60 ? text.substr(0, 57) + "..." : text) + "`";
}

bool in_student_file(const source_position& at, const student_source& source) {
  const std::string name = std::filesystem::path(at.file).filename().string();
  return at.line > 0 &&
         (name == source.file || (!source.compiled_file.empty() && name == source.compiled_file));
}

// The innermost position of a chain in the student's own file: the line of theirs that makes
// the call, directly or through the library code inlined there.
std::optional<int> student_line(const inline_chain& chain, const student_source& source) {
  for (const source_position& at : chain) {
    if (in_student_file(at, source)) {
      return at.line;
    }
  }
  return std::nullopt;
}

std::string at_line(const student_source& source, int line) {
  return " at " + source.file + ":" + std::to_string(line);
}

// The places of one reason's references. Each symbol is placed at the calls the student's lines
// name, else at those lines quoted, else at the student's #include of the header whose code
// makes the call; for the reason, a quoted line is dropped where a call on it is named, and the
// #includes count only when no line of the student's shows a call.
class reason_places {
public:
  reason_places(const violation_places& places, const student_source& source)
      : m_places(places), m_source(source), m_lines(lines_of(source.text)) {}

  void add(const policy_violation& violation) {
    const auto found = m_places.references.find(violation.symbol);
    if (found == m_places.references.end()) {
      return;
    }
    const auto words = source_words(violation.symbol);
    std::vector<entry> named;
    std::vector<entry> quotes;
    for (const inline_chain& chain : found->second) {
      add_chain(chain, words, named, quotes);
    }
    auto& kept = named.empty() ? m_quoted : m_named;
    kept.insert(kept.end(), named.empty() ? quotes.begin() : named.begin(),
                named.empty() ? quotes.end() : named.end());
  }

  /// The best places found; empty when none.
  [[nodiscard]] std::vector<entry> best() const {
    std::vector<entry> out = m_named;
    for (const entry& quote : m_quoted) {
      if (std::none_of(m_named.begin(), m_named.end(),
                       [&](const entry& call) { return call.line == quote.line; })) {
        out.push_back(quote);
      }
    }
    return out.empty() ? m_included : out;
  }
  /// Header files whose code made calls the student's lines do not show.
  [[nodiscard]] const std::set<std::string>& headers() const { return m_headers; }

private:
  void add_chain(const inline_chain& chain, const std::vector<std::string>& words,
                 std::vector<entry>& named, std::vector<entry>& quotes) {
    if (const auto line = student_line(chain, m_source)) {
      const std::string text = line_at(m_lines, *line);
      if (const std::string call = call_as_written(text, words); !call.empty()) {
        named.push_back({*line, call + at_line(m_source, *line)});
      } else if (const std::string quote = quoted(text); !quote.empty()) {
        quotes.push_back({*line, quote + at_line(m_source, *line)});
      }
      return;
    }
    if (chain.empty()) {
      return;
    }
    m_headers.insert(chain.front().file);
    const auto include = m_places.include_lines.find(chain.front().file);
    if (include != m_places.include_lines.end()) {
      const int line = include->second;
      m_included.push_back({line, quoted(line_at(m_lines, line)) + at_line(m_source, line)});
    }
  }

  const violation_places& m_places;
  const student_source& m_source;
  std::vector<std::string> m_lines;
  std::vector<entry> m_named;
  std::vector<entry> m_quoted;
  std::vector<entry> m_included;
  std::set<std::string> m_headers;
};

std::map<std::string, std::vector<policy_violation>>
references_by_reason(const std::vector<policy_violation>& violations) {
  std::map<std::string, std::vector<policy_violation>> out;
  for (const policy_violation& v : violations) {
    if (!v.definition) {
      out[v.reason].push_back(v);
    }
  }
  return out;
}

std::vector<entry> sorted_unique(std::vector<entry> entries, std::size_t keep) {
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  entries.resize(std::min(entries.size(), keep));
  return entries;
}

// One reason's entries: its placed calls, or each symbol's readable name when none is placed.
std::vector<entry> reason_entries(const std::string& reason,
                                  const std::vector<policy_violation>& group,
                                  const violation_places& places, const student_source& source,
                                  std::size_t per_reason) {
  reason_places found(places, source);
  for (const policy_violation& v : group) {
    found.add(v);
  }
  std::vector<entry> entries = found.best();
  if (entries.empty()) {
    for (const policy_violation& v : group) {
      entries.push_back({0, readable_name(v.symbol)});
    }
  }
  for (entry& e : entries) {
    e.text += " (" + reason + ")";
  }
  return sorted_unique(std::move(entries), per_reason);
}

entry definition_entry(const policy_violation& violation, const violation_places& places,
                       const student_source& source) {
  const auto found = places.definitions.find(violation.symbol);
  if (found == places.definitions.end() || !in_student_file(found->second, source)) {
    return {0, unlocated_description(violation)};
  }
  const int line = found->second.line;
  return {line, "defines " + demangle(violation.symbol) + at_line(source, line) + ", " +
                    violation.reason};
}

} // namespace

std::vector<std::string> source_words(const std::string& mangled) {
  if (mangled.rfind("_Z", 0) != 0) {
    return {mangled};
  }
  std::vector<std::string> parts = components(qualified_name(demangle(mangled)));
  std::vector<std::string> words;
  for (auto part = parts.rbegin(); part != parts.rend(); ++part) {
    std::string word = part->rfind('~', 0) == 0 ? part->substr(1) : *part;
    if (word.empty() || word.front() == '_' || word == "std") {
      continue;
    }
    for (std::string spelling : {word, word.rfind("basic_", 0) == 0 ? word.substr(6) : word}) {
      // std::basic_ofstream<char> is written std::ofstream
      if (std::find(words.begin(), words.end(), spelling) == words.end()) {
        words.push_back(std::move(spelling));
      }
    }
  }
  return words;
}

std::string call_as_written(const std::string& line, const std::vector<std::string>& words) {
  for (const std::string& word : words) {
    const std::size_t at = find_word(line, word);
    if (at == std::string::npos) {
      continue;
    }
    std::size_t start = at;
    while (true) { // the names it is qualified by: std::, object. and pointer->
      std::size_t before = start;
      if (before >= 2 &&
          (line.compare(before - 2, 2, "::") == 0 || line.compare(before - 2, 2, "->") == 0)) {
        before -= 2;
      } else if (before >= 1 && line[before - 1] == '.') {
        before -= 1;
      } else {
        break;
      }
      while (before > 0 && is_word_char(line[before - 1])) {
        --before;
      }
      start = before;
    }
    return line.substr(start, at + word.size() - start);
  }
  return {};
}

std::vector<std::string> describe_violations(const std::vector<policy_violation>& violations,
                                             const violation_places& places,
                                             const student_source& source, std::size_t per_reason) {
  std::vector<entry> entries;
  for (const auto& [reason, group] : references_by_reason(violations)) {
    const auto found = reason_entries(reason, group, places, source, per_reason);
    entries.insert(entries.end(), found.begin(), found.end());
  }
  for (const policy_violation& v : violations) {
    if (v.definition) {
      entries.push_back(definition_entry(v, places, source));
    }
  }
  const std::size_t all = entries.size();
  std::vector<std::string> out;
  for (entry& e : sorted_unique(std::move(entries), all)) {
    out.push_back(std::move(e.text));
  }
  return out;
}

std::set<std::string> headers_to_place(const std::vector<policy_violation>& violations,
                                       const violation_places& places,
                                       const student_source& source) {
  std::set<std::string> headers;
  for (const auto& [reason, group] : references_by_reason(violations)) {
    reason_places found(places, source);
    for (const policy_violation& v : group) {
      found.add(v);
    }
    if (found.best().empty()) {
      headers.insert(found.headers().begin(), found.headers().end());
    }
  }
  return headers;
}

} // namespace cugrade::build
