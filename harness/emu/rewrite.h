#pragma once
/// \file
/// The emulator's source rewriter: turns a student's CUDA file into C++ that g++ compiles against
/// the emulator's headers (harness/emu/include). It translates only what C++ cannot express,
/// kernel launches `<<<...>>>` and `__shared__` declarations (and spells `__noinline__` as a GNU
/// attribute), skips comments and literals, and keeps every line where it was: the output starts
/// with `#line 1 "<file_name>"`, so compiler errors and emulator diagnostics name the student's
/// own lines. Host-only; no dependency on the emulator runtime.

#include <string>
#include <string_view>

#include "harness/core/result.h"

namespace cugrade::emu {

/// Rewrites `text` (the contents of `file_name`). Fails, naming file:line and the fix, on a launch
/// or shared declaration it cannot translate; the grader reports that as a build error.
[[nodiscard]] cugrade::result<std::string> rewrite_source(std::string_view text,
                                                          std::string_view file_name);

} // namespace cugrade::emu
