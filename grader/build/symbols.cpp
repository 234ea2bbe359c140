#include "grader/build/symbols.h"

#include "grader/process/process.h"
#include "grader/sandbox/sandbox.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <sstream>

namespace cugrade::build {
namespace {

result<std::vector<symbol>> run_nm(process::spawn_options options, const std::string& what) {
  auto run = process::run_process(options);
  if (!run) {
    return fail(run.error() + " (install binutils)");
  }
  if (!run->succeeded() || run->output_truncated) {
    return fail("nm could not read " + what + ": " + run->stderr_text);
  }
  return parse_nm_posix(run->stdout_text);
}

process::spawn_options nm_options(std::vector<std::string> argv) {
  process::spawn_options options;
  options.argv = std::move(argv);
  options.time_limit_seconds = 60;
  options.capture_limit_bytes = std::size_t{64} << 20; // a libstdc++ export table is ~1 MiB
  return options;
}

} // namespace

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

// The student's object: nm parses it confined like a compiler, but it may not fork.
result<std::vector<symbol>> object_symbols(const std::filesystem::path& object) {
  auto options = nm_options({"nm", "-P", object.string()});
  sandbox::profile view;
  view.kind = sandbox::role::tool;
  view.read_only = {std::filesystem::absolute(object).parent_path()};
  view.memory_bytes = std::size_t{1} << 30;
  auto box = sandbox::confine(view, options);
  if (!box) {
    return fail(box.error());
  }
  return run_nm(std::move(options), object.string());
}

result<std::vector<symbol>>
runtime_exported_symbols(const std::vector<std::filesystem::path>& libraries) {
  std::vector<std::string> argv{"nm", "-D", "--defined-only", "-P"};
  std::string what;
  for (const auto& library : libraries) {
    argv.push_back(library.string());
    what += (what.empty() ? "" : ", ") + library.string();
  }
  return run_nm(nm_options(std::move(argv)), what);
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
