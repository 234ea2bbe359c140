#pragma once
/// \file
/// Running a binutils program (nm, objdump, addr2line) and reading its output. Over a student's
/// compiled object (the student's input) the program runs confined like a compiler and may not
/// fork; over the toolchain's own runtime libraries it runs as it is.

#include "harness/core/result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::build {

/// Runs `argv` (its program found on PATH) in the sandbox with read access to the folder holding
/// `object`; returns its standard output. Fails when the program cannot start (binutils missing),
/// exits non-zero or writes more than 64 MiB.
[[nodiscard]] result<std::string> run_object_tool(std::vector<std::string> argv,
                                                  const std::filesystem::path& object);

/// Runs `argv` unconfined over files of the toolchain itself (never a submission's file); `what`
/// names them in the error.
[[nodiscard]] result<std::string> run_toolchain_tool(std::vector<std::string> argv,
                                                     const std::string& what);

} // namespace cugrade::build
