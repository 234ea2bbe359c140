#pragma once
/// \file
/// Compiling a student's source into a shared library the runner can dlopen, for the GPU backend
/// (nvcc) or the CPU emulation backend (source rewrite, then g++), and checking the symbol policy
/// of the compiled object: which contract launchers it defines, and which forbidden functions it
/// calls or runtime names it redefines.
///
/// Everything the student's code does is data in `build_outcome` (a compile error, a timeout, a
/// forbidden call); `build_submission` fails only when the grader's machine cannot build at all.

#include "harness/core/result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::build {

/// Which runtime the library is built for.
enum class backend { gpu, emu };

/// Where the compilers and the emulator's headers and runtime library are.
struct toolchain {
  /// nvcc for the GPU backend, e.g. /usr/local/cuda/bin/nvcc; empty means "not installed".
  std::filesystem::path nvcc;
  /// Host compiler: nvcc's -ccbin, and the emulation backend's compiler.
  std::filesystem::path cxx = "g++";
  /// The emulator's include directory and the directory holding libcugrade_emu.so.
  std::filesystem::path emu_include_dir;
  std::filesystem::path emu_lib_dir;
  /// Real architectures to build machine code for; the last one also gets PTX.
  std::vector<std::string> cuda_archs = {"80", "90"};
  /// The grader's own cache (never a sandbox's): what is learnt once about this toolchain is kept
  /// there (runtime_names.h). Empty: nothing is kept.
  std::filesystem::path cache_dir;
};

/// One source to build.
struct build_request {
  backend target = backend::gpu;
  /// The student's file, e.g. <submission>/matmul.cu; compiled where it is.
  std::filesystem::path source;
  /// Outputs (object, library, rewritten source) go here; created if missing.
  std::filesystem::path work_dir;
  /// The contract's launcher names, which must be defined with C linkage.
  std::vector<std::string> launchers;
  /// The contract's parameter list, the same for every launcher, e.g. "const float* M, const
  /// float* N, float* P, int j, int k, int l". When set, each launcher's declaration is checked
  /// against it (launcher_signatures.h): one with other parameter types fails the build, with
  /// both signatures in the log. Empty: not checked.
  std::string launcher_parameters;
  /// Wall-clock budget for the whole build (compile, symbol check and link).
  double time_limit_seconds = 120;
  toolchain tools;
};

/// What became of one build.
struct build_outcome {
  /// Compiled and linked. A compile error is false here with the reason in `log`.
  bool ok = false;
  /// The compiler's messages, trimmed, with paths shown relative to the submission (in
  /// emulation also cleaned of the emulator: compile_messages.h).
  std::string log;
  /// The first errors (a failed build) or the warnings (a built one) at the student's lines,
  /// each with its source line: what a student reads first.
  std::string summary;
  /// Warnings in the student's file: shown as notes, never failures.
  std::size_t warnings = 0;
  double seconds = 0;
  /// The shared library (set when ok) and the compiled object (set once compiled).
  std::filesystem::path library;
  std::filesystem::path object;
  /// Contract launchers defined with C linkage, and those that are not (in contract order).
  /// These, `forbidden_symbols` and `notes` are filled once the source compiled to an object.
  std::vector<std::string> defined_launchers;
  std::vector<std::string> missing_launchers;
  /// Policy violations in the words of what the student wrote, in source order, each with the
  /// reason: "std::fopen at matmul.cu:12 (files are not allowed)", "#include <future> at
  /// matmul.cu:3 (threads are not allowed)", "defines malloc at matmul.cu:4, which the runtime
  /// already defines" (forbidden_uses.h).
  std::vector<std::string> forbidden_symbols;
  /// Hints for the student, e.g. a launcher defined with C++ linkage.
  std::vector<std::string> notes;
  /// The build ran out of time (ok is false).
  bool timed_out = false;
};

/// Builds and checks one source. Fails only for infrastructure: no compiler, nm missing, an
/// unwritable work_dir, a runtime library that cannot be read.
result<build_outcome> build_submission(const build_request& request);

/// Stable words for a backend: "gpu" or "emu".
[[nodiscard]] const char* to_string(backend target) noexcept;

} // namespace cugrade::build
