#pragma once
/// \file
/// Where a compiled object uses a symbol, in source terms: the file and line of each call the
/// code makes (read from the object's relocations and its debug line information, with the
/// chain of functions inlined at that point), and where a symbol is defined. The symbol policy's
/// messages name these places instead of the symbols.

#include "harness/core/result.h"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::build {

/// A place in a source file as the debug information gives it; line 0 when unknown.
struct source_position {
  std::string file;
  int line = 0;
  bool operator==(const source_position&) const = default;
};

/// One use of a symbol: the positions of the code that makes it, the innermost first (a
/// library header's inline function, say) and the function it was inlined into last.
using inline_chain = std::vector<source_position>;

/// Symbol name -> its uses.
using site_map = std::map<std::string, std::vector<inline_chain>>;

/// Where the object's code references each of `names`: every relocation against it in a code
/// section, at most `per_name` each. A name referenced only from data (a vtable) or an object
/// without debug information gives no chains.
[[nodiscard]] result<site_map> reference_sites(const std::filesystem::path& object,
                                               const std::set<std::string>& names,
                                               std::size_t per_name = 8);

/// Where each of `names` that the object defines is defined (nm -l).
[[nodiscard]] result<std::map<std::string, source_position>>
definition_sites(const std::filesystem::path& object, const std::set<std::string>& names);

/// One relocation of `objdump -rw` output: the section holding the code and the offset.
struct relocation {
  std::string section;
  std::string offset; ///< hexadecimal, as objdump prints it
  std::string symbol;
};

/// The relocations in code sections (.text and .text.*) of `objdump -rw` output.
[[nodiscard]] std::vector<relocation> parse_code_relocations(std::string_view objdump_output);

/// `addr2line -a -i` output: one chain per address, in the order asked.
[[nodiscard]] std::vector<inline_chain> parse_inline_chains(std::string_view addr2line_output);

/// "path:42" or "path:42 (discriminator 3)" as a position; line 0 for "??:0" and "??:?".
[[nodiscard]] source_position parse_position(std::string_view text);

} // namespace cugrade::build
