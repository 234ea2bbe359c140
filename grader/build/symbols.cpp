#include "grader/build/symbols.h"

#include "grader/build/object_tool.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <sstream>

namespace cugrade::build {

bool symbol::undefined() const noexcept {
  return type == 'U' || type == 'w' || type == 'v';
}

bool symbol::defined_global() const noexcept {
  const bool upper = std::isupper(static_cast<unsigned char>(type)) != 0;
  return (upper && type != 'U' && type != 'N') || type == 'u' || type == 'i';
}

bool symbol::weak() const noexcept {
  return type == 'W' || type == 'V' || type == 'u';
}

std::vector<symbol> parse_nm_posix(std::string_view text) {
  std::vector<symbol> symbols;
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == ':') {
      continue; // "path:" before each file's symbols when nm reads several
    }
    std::istringstream fields(line);
    symbol entry;
    if (!(fields >> entry.name >> entry.type)) {
      continue;
    }
    entry.name = entry.name.substr(0, entry.name.find('@'));
    symbols.push_back(std::move(entry));
  }
  return symbols;
}

result<std::vector<symbol>> object_symbols(const std::filesystem::path& object) {
  auto listing = run_object_tool({"nm", "-P", object.string()}, object);
  if (!listing) {
    return fail(listing.error());
  }
  return parse_nm_posix(*listing);
}

result<std::vector<symbol>>
runtime_exported_symbols(const std::vector<std::filesystem::path>& libraries) {
  std::vector<std::string> argv{"nm", "-D", "--defined-only", "-P"};
  std::string what;
  for (const auto& library : libraries) {
    argv.push_back(library.string());
    what += (what.empty() ? "" : ", ") + library.string();
  }
  auto listing = run_toolchain_tool(std::move(argv), what);
  if (!listing) {
    return fail(listing.error());
  }
  return parse_nm_posix(*listing);
}

std::string demangle(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) {
    return name;
  }
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> readable(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && readable ? std::string(readable.get()) : name;
}

} // namespace cugrade::build
