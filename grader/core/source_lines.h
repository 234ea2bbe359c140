#pragma once
/// \file
/// Maps a faulting instruction (an offset inside the student's shared object, reported by the
/// emulator's fault handler) to the student's source line, with addr2line from binutils.

#include <filesystem>
#include <optional>
#include <string>

namespace cugrade::grader {

/// "matmul.cu:47 (in matmul_tiled_kernel)", or nullopt when it cannot be known.
[[nodiscard]] std::optional<std::string> source_line_of(const std::filesystem::path& object,
                                                        const std::string& pc_offset);

} // namespace cugrade::grader
