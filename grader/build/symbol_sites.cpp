#include "grader/build/symbol_sites.h"

#include "grader/build/object_tool.h"
#include "harness/core/words.h"

#include <sstream>

namespace cugrade::build {
namespace {


// "RELOCATION RECORDS FOR [.text.startup]:" -> ".text.startup"; empty for other lines.
std::string record_section(const std::string& line) {
  const std::string head = "RELOCATION RECORDS FOR [";
  if (line.rfind(head, 0) != 0 || line.size() < head.size() + 2) {
    return {};
  }
  return line.substr(head.size(), line.rfind(']') - head.size());
}

bool is_code_section(const std::string& section) {
  return section == ".text" || section.rfind(".text.", 0) == 0;
}

// "fopen-0x0000000000000004" -> "fopen": the addend is not part of the name.
std::string value_symbol(const std::string& value) {
  const auto addend = value.find_first_of("+-", 1);
  return value.substr(0, addend == std::string::npos ? value.size() : addend);
}

// One addr2line run per section: its addresses, in order, and the chains they gave.
result<std::vector<inline_chain>> chains_in(const std::filesystem::path& object,
                                            const std::string& section,
                                            const std::vector<std::string>& offsets) {
  std::vector<std::string> argv{"addr2line", "-a", "-i", "-e", object.string(), "-j", section};
  for (const std::string& offset : offsets) {
    argv.push_back("0x" + offset);
  }
  auto output = run_object_tool(std::move(argv), object);
  if (!output) {
    return fail(output.error());
  }
  return parse_inline_chains(*output);
}

} // namespace

source_position parse_position(std::string_view text) {
  std::string line(text.substr(0, text.find(" (discriminator")));
  const auto colon = line.rfind(':');
  if (colon == std::string::npos) {
    return {line, 0};
  }
  source_position at{line.substr(0, colon), 0};
  try {
    at.line = std::stoi(line.substr(colon + 1));
  } catch (const std::exception&) {
    at.line = 0; // "??:?"
  }
  return at;
}

std::vector<relocation> parse_code_relocations(std::string_view objdump_output) {
  std::vector<relocation> out;
  std::string section;
  for (const std::string& line : lines_of(objdump_output)) {
    if (line.rfind("RELOCATION RECORDS FOR", 0) == 0) {
      section = record_section(line);
      continue;
    }
    std::istringstream fields(line);
    std::string offset;
    std::string type;
    std::string value;
    if (!is_code_section(section) || !(fields >> offset >> type >> value) || offset == "OFFSET") {
      continue;
    }
    out.push_back({section, offset, value_symbol(value)});
  }
  return out;
}

std::vector<inline_chain> parse_inline_chains(std::string_view addr2line_output) {
  std::vector<inline_chain> chains;
  for (const std::string& line : lines_of(addr2line_output)) {
    if (line.rfind("0x", 0) == 0) {
      chains.emplace_back();
    } else if (!chains.empty() && !line.empty()) {
      chains.back().push_back(parse_position(line));
    }
  }
  return chains;
}

result<site_map> reference_sites(const std::filesystem::path& object,
                                 const std::set<std::string>& names, std::size_t per_name) {
  if (names.empty()) {
    return site_map{};
  }
  auto listing = run_object_tool({"objdump", "-rw", object.string()}, object);
  if (!listing) {
    return fail(listing.error());
  }
  // Per section, the offsets to locate and the symbol each belongs to.
  std::map<std::string, std::vector<relocation>> wanted;
  std::map<std::string, std::size_t> taken;
  for (relocation& entry : parse_code_relocations(*listing)) {
    if (names.contains(entry.symbol) && taken[entry.symbol]++ < per_name) {
      wanted[entry.section].push_back(std::move(entry));
    }
  }
  site_map sites;
  for (const auto& [section, entries] : wanted) {
    std::vector<std::string> offsets;
    for (const relocation& entry : entries) {
      offsets.push_back(entry.offset);
    }
    auto chains = chains_in(object, section, offsets);
    if (!chains) {
      return fail(chains.error());
    }
    for (std::size_t i = 0; i < entries.size() && i < chains->size(); ++i) {
      sites[entries[i].symbol].push_back(std::move((*chains)[i]));
    }
  }
  return sites;
}

result<std::map<std::string, source_position>>
definition_sites(const std::filesystem::path& object, const std::set<std::string>& names) {
  if (names.empty()) {
    return std::map<std::string, source_position>{};
  }
  auto listing = run_object_tool({"nm", "-l", "-P", "--defined-only", object.string()}, object);
  if (!listing) {
    return fail(listing.error());
  }
  std::map<std::string, source_position> out;
  for (const std::string& line : lines_of(*listing)) {
    const auto tab = line.find('\t');
    const std::string name = line.substr(0, line.find(' '));
    if (tab != std::string::npos && names.contains(name)) {
      out.emplace(name, parse_position(line.substr(tab + 1)));
    }
  }
  return out;
}

} // namespace cugrade::build
