#pragma once
/// \file
/// How a rewritten submission becomes a loadable library: the exact g++ command line, and a
/// helper that rewrites and compiles in one go (what `cugrade_emu_cc` and the grader's emulator
/// build step run).

#include <filesystem>
#include <string>
#include <vector>

#include "harness/core/result.h"

namespace cugrade::emu {

/// argv of the compile: g++ -std=c++20 -O2 -g -fPIC -shared -fno-strict-aliasing
/// -fstack-clash-protection -Wno-register
/// -include <include_dir>/cugrade_emu.h -I<include_dir> -x c++ <rewritten_source> -x none
/// -o <output_so> -L<lib_dir> -lcugrade_emu -Wl,-rpath,<lib_dir> -Wl,-z,defs
/// (-z defs turns a call to an API the emulator lacks into a link error naming the symbol;
/// stack-clash protection makes a thread's stack overflow hit its guard page.)
[[nodiscard]] std::vector<std::string>
emu_compile_command(const std::filesystem::path& rewritten_source,
                    const std::filesystem::path& output_so,
                    const std::filesystem::path& include_dir, const std::filesystem::path& lib_dir);

/// What a build produced: the compiler's exit status and everything it printed.
struct build_output {
  int exit_status = 0;
  std::string log;
};

/// Rewrites `source` into `rewritten` and compiles it to `output_so`. An operational failure
/// (unreadable file, compiler not found) fails; a student's compile error is a build_output with
/// a non-zero status, and a rewrite error one with status 1 and the rewriter's message.
[[nodiscard]] cugrade::result<build_output>
build_submission(const std::filesystem::path& source, const std::filesystem::path& rewritten,
                 const std::filesystem::path& output_so, const std::filesystem::path& include_dir,
                 const std::filesystem::path& lib_dir);

} // namespace cugrade::emu
