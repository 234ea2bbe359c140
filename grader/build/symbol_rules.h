#pragma once
/// \file
/// The symbol policy's tables: which undefined symbols a submission may reference (what a
/// launcher legitimately needs: kernel launch machinery, device memory, properties, occupancy,
/// errors, printing, the C++ runtime, libm) and, for everything else, the reason it is refused.
/// docs/sandbox.md lists the same tables for students and TAs.

#include "grader/build/build.h"

#include <optional>
#include <string>
#include <string_view>

namespace cugrade::build {

/// Why referencing `mangled` (an undefined symbol of the object) is forbidden, e.g.
/// "files are not allowed"; nothing when it is allowed.
[[nodiscard]] std::optional<std::string> undefined_symbol_problem(std::string_view mangled,
                                                                  backend target);

/// Names a submission may never define, whatever the libraries export: main, the grader's
/// names (cugrade*), CUDA's (cuda*, __cuda*, cu followed by a capital). Returns the end of the
/// message "defines main, which the grader owns": "which the grader owns", "a name reserved
/// for CUDA".
[[nodiscard]] std::optional<std::string> reserved_name_problem(std::string_view mangled);

} // namespace cugrade::build
