#include "grader/build/symbol_policy.h"

#include "grader/build/symbol_rules.h"

#include <algorithm>
#include <optional>
#include <set>

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
  if (const auto reserved = reserved_name_problem(entry.name)) {
    return "defines " + demangle(entry.name) + ", " + *reserved;
  }
  if (runtime.contains(entry.name)) {
    return "defines " + demangle(entry.name) + ", which the runtime already defines";
  }
  return std::nullopt;
}

std::set<std::string> forbidden_symbols(const std::vector<symbol>& symbols, backend target,
                                        const name_set& runtime) {
  std::set<std::string> found;
  for (const symbol& entry : symbols) {
    if (entry.defined_global()) {
      if (auto problem = definition_problem(entry, runtime)) {
        found.insert(std::move(*problem));
      }
    } else if (entry.undefined()) {
      if (const auto reason = undefined_symbol_problem(entry.name, target)) {
        found.insert(demangle(entry.name) + " (" + *reason + ")");
      }
    }
  }
  return found;
}

} // namespace

policy_verdict check_symbol_policy(const std::vector<symbol>& symbols,
                                   const std::vector<std::string>& launchers, backend target,
                                   const name_set& runtime) {
  policy_verdict verdict;
  check_launchers(symbols, launchers, verdict);
  const std::set<std::string> forbidden = forbidden_symbols(symbols, target, runtime);
  verdict.forbidden_symbols.assign(forbidden.begin(), forbidden.end());
  return verdict;
}

} // namespace cugrade::build
