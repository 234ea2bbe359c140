#pragma once
/// \file
/// Symbols of a compiled object or shared library, read with binutils' nm in its POSIX format
/// (raw, mangled names; `nm -C` output is ambiguous to parse), and demangled only for messages.

#include "harness/core/result.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::build {

/// One nm line: the mangled name (any "@version" suffix removed) and nm's type letter.
struct symbol {
  std::string name;
  char type = '?';

  /// Referenced but not defined here: U, and the weak undefined kinds w and v.
  [[nodiscard]] bool undefined() const noexcept;
  /// Defined and visible to the dynamic linker: upper-case letters but U, GNU unique (u) and
  /// indirect functions (i).
  [[nodiscard]] bool defined_global() const noexcept;
  /// Defined weak (W, V) or GNU unique (u): what the compiler emits for inline functions,
  /// template instantiations and their static members, one copy per object that uses them.
  [[nodiscard]] bool weak() const noexcept;
};

/// Parses `nm -P` output; malformed lines and the "file:" headers of a run over several files
/// are skipped.
[[nodiscard]] std::vector<symbol> parse_nm_posix(std::string_view text);

/// Every symbol of an object file (`nm -P`).
[[nodiscard]] result<std::vector<symbol>> object_symbols(const std::filesystem::path& object);

/// The dynamic symbols that the toolchain's own runtime libraries define (`nm -D --defined-only
/// -P`), all read by one nm run. It runs outside the sandbox: these are the machine's libc,
/// libstdc++ and the CUDA runtime or the emulator's library, never a submission's file.
[[nodiscard]] result<std::vector<symbol>>
runtime_exported_symbols(const std::vector<std::filesystem::path>& libraries);

/// The readable name for messages ("operator new(unsigned long)"); the input when not mangled.
[[nodiscard]] std::string demangle(const std::string& name);

} // namespace cugrade::build
