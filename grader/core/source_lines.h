#pragma once
/// \file
/// Maps a faulting instruction (an offset inside the student's shared object, reported by the
/// emulator's fault handler) to the student's source line, with addr2line from binutils.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace cugrade::grader {

/// "matmul.cu:47 (in matmul_tiled_kernel)", or nullopt when it cannot be known.
[[nodiscard]] std::optional<std::string> source_line_of(const std::filesystem::path& object,
                                                        const std::string& pc_offset);

/// The first row of `objdump --dwarf=decodedline` output for `file` at `address`: when optimised
/// code begins several statements at one instruction, the first is the one whose access it is.
[[nodiscard]] std::optional<int> first_statement_line(const std::string& decoded_line_table,
                                                      const std::string& file,
                                                      std::uint64_t address);

} // namespace cugrade::grader
