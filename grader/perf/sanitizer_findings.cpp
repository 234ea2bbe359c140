#include "grader/perf/sanitizer_findings.h"

#include "harness/core/words.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <pugixml.hpp>

namespace cugrade::perf {

namespace {

using xml_node = pugi::xml_node;

// The trimmed text of the element at a path of child names ("where/line"), or "" where the
// report has no such element. pugixml has already decoded entities and CDATA.
std::string text_at(const xml_node& node, const char* path) {
  std::string_view text = node.first_element_by_path(path).text().as_string();
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    return "";
  }
  text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  return std::string(text);
}

int number(const std::string& text) {
  int v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

std::string base_name(const std::string& path) {
  return path.empty() ? path : std::filesystem::path(path).filename().string();
}

std::string location_of(const xml_node& where) {
  const auto file = base_name(text_at(where, "path"));
  return file.empty() ? text_at(where, "func") : file + ":" + text_at(where, "line");
}

// The access's place in the student's code: the record's <where>, or, where that lies in a header
// (CUDA's atomicAdd, inlined into the kernel), the first frame of its <deviceStack> in a .cu file,
// the form a submission is handed in as.
xml_node student_where(const xml_node& record) {
  const auto in_source = [](const xml_node& place) {
    return text_at(place, "path").ends_with(".cu");
  };
  const xml_node where = record.child("where");
  if (in_source(where)) {
    return where;
  }
  for (const xml_node frame : record.child("deviceStack").children("frame")) {
    if (in_source(frame)) {
      return frame;
    }
  }
  return where;
}

void read_where(const xml_node& where, sanitizer_finding& f) {
  if (where) {
    f.function = text_at(where, "func");
    f.file = base_name(text_at(where, "path"));
    f.line = number(text_at(where, "line"));
  }
}

void read_who(const xml_node& record, sanitizer_finding& f) {
  if (const xml_node who = record.child("who")) {
    f.thread = fmt::format("thread ({},{},{}) in block ({},{},{})", text_at(who, "threadIdx/x"),
                           text_at(who, "threadIdx/y"), text_at(who, "threadIdx/z"),
                           text_at(who, "blockIdx/x"), text_at(who, "blockIdx/y"),
                           text_at(who, "blockIdx/z"));
  }
}

std::string memory_kind(const xml_node& what) {
  const std::string error = text_at(what, "error");
  if (error.find("misaligned") != std::string::npos) {
    return "misaligned_address";
  }
  if (error.find("out of bounds") != std::string::npos) {
    return "out_of_bounds";
  }
  return "illegal_address";
}

// memcheck's Precise/Imprecise records: one bad access.
sanitizer_finding memory_finding(const xml_node& record, std::string_view tool) {
  sanitizer_finding f;
  f.tool = tool;
  const xml_node what = record.child("what");
  f.error_kind = what ? memory_kind(what) : "illegal_address";
  f.what = what ? text_at(what, "text") : "invalid memory access";
  const std::string address = text_at(what, "address");
  if (address.rfind("0x", 0) == 0) {
    std::from_chars(address.data() + 2, address.data() + address.size(), f.address, 16);
  }
  read_where(student_where(record), f);
  read_who(record, f);
  return f;
}

// racecheck's Analysis records: two accesses to shared memory with no barrier between them.
sanitizer_finding race_finding(const xml_node& record, std::string_view tool) {
  sanitizer_finding f;
  f.tool = tool;
  f.error_kind = "race";
  // pugixml answers an empty node for a missing child, so a record without <what> reads as
  // accesses with no direction and no location.
  const xml_node source = record.child("what").child("source");
  const xml_node destination = record.child("what").child("destination");
  const auto direction = [](const xml_node& e) {
    const std::string d = ascii_lowercase(text_at(e, "direction"));
    return d.empty() ? std::string("access") : d;
  };
  f.what = fmt::format("a race on shared memory between a {} and a {}", direction(source),
                       direction(destination));
  read_where(destination.child("where"), f);
  f.other_location = location_of(source.child("where"));
  f.occurrences = std::max(1, number(text_at(destination, "count")));
  return f;
}

// synccheck's records: a barrier misused, mostly one reached by only some threads.
sanitizer_finding sync_finding(const xml_node& record, std::string_view tool) {
  sanitizer_finding f;
  f.tool = tool;
  const std::string type = text_at(record, "what/type");
  f.error_kind =
      type.find("Divergent") != std::string::npos ? "barrier_divergence" : "synchronization_error";
  f.what = text_at(record, "what/text") + (type.empty() ? "" : ": " + type);
  read_where(student_where(record), f);
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
  // Default parsing: entities and CDATA decoded, no DOCTYPE entity expansion (a report cannot
  // make the grader expand entities), UTF-8 as written.
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
  if (!parsed) {
    return fail(fmt::format("compute-sanitizer's report: {} at byte {}", parsed.description(),
                            parsed.offset));
  }
  const xml_node root = doc.document_element();
  if (std::string_view(root.name()) != "ComputeSanitizerOutput") {
    return fail(fmt::format("compute-sanitizer's report: the root element is <{}>, expected "
                            "<ComputeSanitizerOutput>",
                            root.name()));
  }
  std::vector<sanitizer_finding> out;
  for (const xml_node record : root.children("record")) {
    const std::string kind = text_at(record, "kind");
    const std::string level = text_at(record, "level");
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
