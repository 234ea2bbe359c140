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

/// One thing the policy refuses: a symbol the object references or defines, and why.
struct policy_violation {
  std::string symbol; ///< as nm gives it (mangled)
  bool definition = false;
  /// For a reference the category, e.g. "files are not allowed"; for a definition the end of
  /// "defines X, ...", e.g. "which the runtime already defines".
  std::string reason;
  bool operator==(const policy_violation&) const = default;
};

/// The policy's findings.
struct policy_verdict {
  std::vector<std::string> defined_launchers;
  std::vector<std::string> missing_launchers;
  /// Each violating symbol once, sorted by symbol.
  std::vector<policy_violation> violations;
  std::vector<std::string> notes;
};

/// Checks an object's symbols (from object_symbols) against the contract's launcher names and
/// the names the runtime libraries export.
[[nodiscard]] policy_verdict check_symbol_policy(const std::vector<symbol>& symbols,
                                                 const std::vector<std::string>& launchers,
                                                 backend target, const name_set& runtime);

/// A violation in words without a source location, e.g. "fopen (files are not allowed)" or
/// "defines malloc, which the runtime already defines": what is said when the debug information
/// cannot place it.
[[nodiscard]] std::string unlocated_description(const policy_violation& violation);

} // namespace cugrade::build
