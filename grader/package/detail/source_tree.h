#pragma once
/// \file
/// What both packages take from cugrade's source tree: the files a build of the `grade` preset
/// needs, the check that the tree is there, and copying.

#include "harness/core/result.h"

#include <array>
#include <filesystem>
#include <string_view>

namespace cugrade::package::detail {

/// What building cugrade's `grade` preset needs from the source tree besides `reference/` (no
/// tests, no docs).
inline constexpr std::array<std::string_view, 9> build_inputs{
    "CMakeLists.txt", "CMakePresets.json", "README.md", "CHANGELOG.md", "cmake",
    "harness",        "reports",           "grader",    "scripts"};

/// Fails (a usage error naming the missing file) unless `root` is a cugrade source tree holding
/// `needed` (relative to it) as well.
[[nodiscard]] result<void> require_source_tree(const std::filesystem::path& root,
                                               const std::filesystem::path& needed);

/// Copies a file or a folder (recursively) to `to`, making its parent folders.
[[nodiscard]] result<void> copy_into(const std::filesystem::path& from,
                                     const std::filesystem::path& to);

} // namespace cugrade::package::detail
