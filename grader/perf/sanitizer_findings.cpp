#include "grader/perf/sanitizer_findings.h"

#include "grader/perf/xml_tree.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fmt/format.h>

namespace cugrade::perf {

namespace {

int number(const std::string& text) {
  int v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

std::string base_name(const std::string& path) {
  return path.empty() ? path : std::filesystem::path(path).filename().string();
}

std::string location_of(const xml_element* where) {
  if (where == nullptr) {
    return "";
  }
  const auto file = base_name(where->text_at("path"));
  return file.empty() ? where->text_at("func") : file + ":" + where->text_at("line");
}

void read_where(const xml_element* where, sanitizer_finding& f) {
  if (where != nullptr) {
    f.function = where->text_at("func");
    f.file = base_name(where->text_at("path"));
    f.line = number(where->text_at("line"));
  }
}

void read_who(const xml_element& record, sanitizer_finding& f) {
  if (const auto* who = record.child("who")) {
    f.thread = fmt::format("thread ({},{},{}) in block ({},{},{})", who->text_at("threadIdx/x"),
                           who->text_at("threadIdx/y"), who->text_at("threadIdx/z"),
                           who->text_at("blockIdx/x"), who->text_at("blockIdx/y"),
                           who->text_at("blockIdx/z"));
  }
}

std::string memory_kind(const xml_element& what) {
  const std::string error = what.text_at("error");
  if (error.find("misaligned") != std::string::npos) {
    return "misaligned_address";
  }
  if (error.find("out of bounds") != std::string::npos) {
    return "out_of_bounds";
  }
  return "illegal_address";
}

// memcheck's Precise/Imprecise records: one bad access.
sanitizer_finding memory_finding(const xml_element& record, std::string_view tool) {
  sanitizer_finding f;
  f.tool = tool;
  const auto* what = record.child("what");
  f.error_kind = what != nullptr ? memory_kind(*what) : "illegal_address";
  f.what = what != nullptr ? what->text_at("text") : "invalid memory access";
  read_where(record.child("where"), f);
  read_who(record, f);
  return f;
}

// racecheck's Analysis records: two accesses to shared memory with no barrier between them.
sanitizer_finding race_finding(const xml_element& record, std::string_view tool) {
  sanitizer_finding f;
  f.tool = tool;
  f.error_kind = "race";
  const xml_element* what = record.child("what");
  const xml_element* source = what != nullptr ? what->child("source") : nullptr;
  const xml_element* destination = what != nullptr ? what->child("destination") : nullptr;
  const auto direction = [](const xml_element* e) {
    std::string d = e != nullptr ? e->text_at("direction") : "";
    std::transform(d.begin(), d.end(), d.begin(), [](unsigned char c) { return std::tolower(c); });
    return d.empty() ? std::string("access") : d;
  };
  f.what = fmt::format("a race on shared memory between a {} and a {}", direction(source),
                       direction(destination));
  read_where(destination != nullptr ? destination->child("where") : nullptr, f);
  f.other_location = location_of(source != nullptr ? source->child("where") : nullptr);
  if (destination != nullptr) {
    f.occurrences = std::max(1, number(destination->text_at("count")));
  }
  return f;
}

// synccheck's records: a barrier misused, mostly one reached by only some threads.
sanitizer_finding sync_finding(const xml_element& record, std::string_view tool) {
  sanitizer_finding f;
  f.tool = tool;
  const std::string type = record.text_at("what/type");
  f.error_kind =
      type.find("Divergent") != std::string::npos ? "barrier_divergence" : "synchronization_error";
  f.what = record.text_at("what/text") + (type.empty() ? "" : ": " + type);
  read_where(record.child("where"), f);
  read_who(record, f);
  return f;
}

void add(std::vector<sanitizer_finding>& out, sanitizer_finding f) {
  for (auto& seen : out) {
    if (seen.error_kind == f.error_kind && seen.file == f.file && seen.line == f.line &&
        seen.function == f.function) {
      seen.occurrences += f.occurrences;
      return;
    }
  }
  out.push_back(std::move(f));
}

} // namespace

std::string sanitizer_finding::location() const {
  return file.empty() ? function : file + ":" + std::to_string(line);
}

std::string sanitizer_finding::describe() const {
  std::string s = what + " at " + location();
  if (!other_location.empty()) {
    s += " and " + other_location;
  }
  if (!function.empty() && !file.empty()) {
    s += " in " + function;
  }
  if (!thread.empty()) {
    s += ", " + thread;
  }
  if (occurrences > 1) {
    s += fmt::format(" ({} times)", occurrences);
  }
  return s + " [compute-sanitizer " + tool + "]";
}

result<std::vector<sanitizer_finding>> read_sanitizer_xml(std::string_view xml,
                                                          std::string_view tool) {
  auto root = parse_xml(xml);
  if (!root) {
    return fail("compute-sanitizer's report: " + root.error());
  }
  std::vector<sanitizer_finding> out;
  for (const auto& record : root->children) {
    if (record.name != "record") {
      continue;
    }
    const std::string kind = record.text_at("kind");
    const std::string level = record.text_at("level");
    if (kind == "Precise" || kind == "Imprecise") {
      add(out, memory_finding(record, tool));
    } else if (kind == "Analysis" && level == "Error") {
      add(out, race_finding(record, tool));
    } else if (kind == "Synccheck") {
      add(out, sync_finding(record, tool));
    }
  }
  return out;
}

} // namespace cugrade::perf
