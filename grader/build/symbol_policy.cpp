#include "grader/build/symbol_policy.h"

#include "grader/build/symbol_rules.h"

#include <algorithm>
#include <map>
#include <optional>

namespace cugrade::build {
namespace {

// A global-namespace function with C++ linkage mangles as _Z<length><name><parameters>.
std::optional<std::string> cxx_linkage_definition(const std::vector<symbol>& symbols,
                                                  const std::string& launcher) {
  const std::string prefix = "_Z" + std::to_string(launcher.size()) + launcher;
  for (const symbol& entry : symbols) {
    if (entry.defined_global() && entry.name.rfind(prefix, 0) == 0) {
      return demangle(entry.name);
    }
  }
  return std::nullopt;
}

bool defines_c_symbol(const std::vector<symbol>& symbols, const std::string& name) {
  return std::any_of(symbols.begin(), symbols.end(), [&](const symbol& entry) {
    return entry.defined_global() && entry.name == name;
  });
}

void check_launchers(const std::vector<symbol>& symbols, const std::vector<std::string>& launchers,
                     policy_verdict& verdict) {
  for (const std::string& launcher : launchers) {
    if (defines_c_symbol(symbols, launcher)) {
      verdict.defined_launchers.push_back(launcher);
      continue;
    }
    verdict.missing_launchers.push_back(launcher);
    if (const auto cxx = cxx_linkage_definition(symbols, launcher)) {
      verdict.notes.push_back(launcher + " is defined with C++ linkage (as " + *cxx +
                              "); declare it extern \"C\" so the grader can find it");
    }
  }
}

// Weak definitions of mangled names are the compiler's copies of inline functions, templates and
// their static members from headers the runtime shares (libstdc++'s, the emulator's): identical
// to the runtime's own, so harmless. A weak C name (main, malloc) is still a definition.
std::optional<std::string> definition_problem(const symbol& entry, const name_set& runtime) {
  if (entry.weak() && entry.name.rfind("_Z", 0) == 0) {
    return std::nullopt;
  }
  if (auto reserved = reserved_name_problem(entry.name)) {
    return reserved;
  }
  if (runtime.contains(entry.name)) {
    return "which the runtime already defines";
  }
  return std::nullopt;
}

std::optional<policy_violation> violation_of(const symbol& entry, backend target,
                                             const name_set& runtime) {
  if (entry.defined_global()) {
    if (auto problem = definition_problem(entry, runtime)) {
      return policy_violation{entry.name, true, std::move(*problem)};
    }
  } else if (entry.undefined()) {
    if (auto reason = undefined_symbol_problem(entry.name, target)) {
      return policy_violation{entry.name, false, std::move(*reason)};
    }
  }
  return std::nullopt;
}

std::vector<policy_violation> violations_of(const std::vector<symbol>& symbols, backend target,
                                            const name_set& runtime) {
  std::map<std::pair<std::string, bool>, policy_violation> found; // one per symbol and kind
  for (const symbol& entry : symbols) {
    if (auto violation = violation_of(entry, target, runtime)) {
      found.emplace(std::pair{violation->symbol, violation->definition}, std::move(*violation));
    }
  }
  std::vector<policy_violation> out;
  for (auto& [key, violation] : found) {
    out.push_back(std::move(violation));
  }
  return out;
}

} // namespace

policy_verdict check_symbol_policy(const std::vector<symbol>& symbols,
                                   const std::vector<std::string>& launchers, backend target,
                                   const name_set& runtime) {
  policy_verdict verdict;
  check_launchers(symbols, launchers, verdict);
  verdict.violations = violations_of(symbols, target, runtime);
  return verdict;
}

std::string unlocated_description(const policy_violation& violation) {
  return violation.definition ? "defines " + demangle(violation.symbol) + ", " + violation.reason
                              : demangle(violation.symbol) + " (" + violation.reason + ")";
}

} // namespace cugrade::build
