#pragma once
/// \file
/// The runtime names (runtime_names.h) kept on disk between gradings. Finding them costs four
/// `g++ -print-file-name` runs and an `nm -D` of five libraries (about 0.24 s), the same for every
/// grading on a machine; a student's check and each process of a batch paid it again. The file is
/// named after what locates the libraries (the backend, the host compiler's binary as it is now,
/// the emulator's or CUDA's folder) and lists each library's size, modification time and inode:
/// it is used only while every one of them is unchanged.

#include "grader/build/runtime_names.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::build::detail {

/// CACHE_DIR/runtime-names/<16 hex digits>.txt for this key and host compiler (its binary's size,
/// modification time and inode are part of the name, so another compiler is another file).
[[nodiscard]] std::filesystem::path runtime_names_file(const std::filesystem::path& cache_dir,
                                                       const std::string& key,
                                                       const std::filesystem::path& cxx);

/// The names stored in `file`, or nullopt when it is absent, malformed, or any library it lists
/// has changed (or gone) since it was written.
[[nodiscard]] std::optional<name_set> load_runtime_names(const std::filesystem::path& file);

/// Writes `file` through write_file_atomically (a reader never sees half of it), first removing
/// the folder's files that list a library which no longer exists. Failing to write is not an
/// error: the names are found again next time.
void store_runtime_names(const std::filesystem::path& file,
                         const std::vector<std::filesystem::path>& libraries,
                         const name_set& names);

} // namespace cugrade::build::detail
