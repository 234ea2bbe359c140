#pragma once
/// \file
/// Turning a compiler's output into a message for the student: their file named as they know it
/// (matmul.cu:42, not /var/tmp/cugrade-x1/work/matmul.emu.cpp(42)), the driver's noise removed,
/// the length capped.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::build {

/// Paths that appear in compiler messages and what the student should see instead.
struct log_context {
  /// The student's file as it was compiled (absolute or relative).
  std::filesystem::path source;
  /// The file actually handed to the compiler when it differs (the emulator's rewrite).
  std::filesystem::path compiled_file;
  /// Where outputs went; mentions of it are removed.
  std::filesystem::path work_dir;
};

/// Rewrites paths to the source's file name, writes nvcc's "file(line)" as "file:line", drops
/// nvcc's remarks and architecture notices, squeezes blank lines, and caps the result at
/// `limit` bytes (cut at a line, with a note saying how much was left out).
[[nodiscard]] std::string trim_compile_log(std::string_view raw, const log_context& context,
                                           std::size_t limit = 8192);

} // namespace cugrade::build
