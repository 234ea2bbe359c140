#pragma once
/// \file
/// The commands one backend needs to turn a source into an object (checked by the symbol
/// policy) and the object into a shared library.

#include "grader/build/build.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::build::detail {

struct build_plan {
  /// Writes the object file.
  std::vector<std::string> compile;
  /// Writes the shared library from the object.
  std::vector<std::string> link;
  /// Writes the preprocessed source (build_paths::preprocessed), whose linemarkers place a
  /// forbidden call made inside a library header at the student's #include of it.
  std::vector<std::string> preprocess;
  /// The file the compiler reads: the student's source, or the emulator's rewrite of it.
  std::filesystem::path compiled_file;
  /// Set when the source cannot be built for reasons that are the student's (the emulator
  /// could not rewrite it); then there is nothing to run.
  std::string student_error;
};

/// Where a build's outputs go.
struct build_paths {
  std::filesystem::path object;
  std::filesystem::path library;
  std::filesystem::path preprocessed;
  /// The contract's launcher declarations (launcher_signatures.h), force-included into the
  /// compile; empty: none.
  std::filesystem::path contract_header;
};

/// nvcc commands: sm_XX machine code for every toolchain.cuda_archs entry and PTX of the last.
[[nodiscard]] result<build_plan> plan_gpu_build(const build_request& request,
                                                const build_paths& paths);

/// The emulator's rewrite of the source, written to the work dir, and g++ commands for it.
[[nodiscard]] result<build_plan> plan_emu_build(const build_request& request,
                                                const build_paths& paths);

/// Whether this build of cugrade includes the emulator's source rewriter.
[[nodiscard]] bool emu_rewriter_available() noexcept;

} // namespace cugrade::build::detail
