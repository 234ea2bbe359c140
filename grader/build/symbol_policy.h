#pragma once
/// \file
/// The symbol policy applied to a compiled object: launchers defined with C linkage, no call
/// outside the allowlist, no definition that would interpose on a runtime library or take a
/// name the grader or CUDA owns. The tables are in symbol_rules.h.

#include "grader/build/build.h"
#include "grader/build/runtime_names.h"
#include "grader/build/symbols.h"

#include <string>
#include <vector>

namespace cugrade::build {

/// The policy's findings, in the shape build_outcome reports them.
struct policy_verdict {
  std::vector<std::string> defined_launchers;
  std::vector<std::string> missing_launchers;
  std::vector<std::string> forbidden_symbols;
  std::vector<std::string> notes;
};

/// Checks an object's symbols (from object_symbols) against the contract's launcher names and
/// the names the runtime libraries export.
[[nodiscard]] policy_verdict check_symbol_policy(const std::vector<symbol>& symbols,
                                                 const std::vector<std::string>& launchers,
                                                 backend target, const name_set& runtime);

} // namespace cugrade::build
