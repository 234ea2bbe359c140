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

result<std::vector<symbol>> run_nm(std::vector<std::string> argv,
                                   const std::filesystem::path& file) {
  process::spawn_options options;
  argv.push_back(file.string());
  options.argv = std::move(argv);
  options.time_limit_seconds = 60;
  options.capture_limit_bytes = std::size_t{64} << 20; // a libstdc++ export table is ~1 MiB
  // nm parses the student's object: confined like a compiler, but it may not fork.
  sandbox::profile view;
  view.kind = sandbox::role::tool;
  view.read_only = {std::filesystem::absolute(file).parent_path()};
  view.memory_bytes = std::size_t{1} << 30;
  auto box = sandbox::confine(view, options);
  if (!box) {
    return fail(box.error());
  }
  auto run = process::run_process(options);
  if (!run) {
    return fail(run.error() + " (install binutils)");
  }
  if (!run->succeeded() || run->output_truncated) {
    return fail("nm could not read " + file.string() + ": " + run->stderr_text);
  }
  return parse_nm_posix(run->stdout_text);
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
  return run_nm({"nm", "-P"}, object);
}

result<std::vector<symbol>> exported_symbols(const std::filesystem::path& library) {
  return run_nm({"nm", "-D", "--defined-only", "-P"}, library);
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
