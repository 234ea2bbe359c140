#pragma once
/// \file
/// Writing a file so that readers see the old content or the new, never a torn mix: a batch
/// killed mid-write (Slurm preemption, Ctrl-C) leaves no half report behind.

#include <filesystem>
#include <string>
#include <string_view>

namespace cugrade::reports {

/// Writes `content` to `path` atomically: creates the parent directories, writes a temporary file
/// in the same directory, fsyncs it, renames it over `path` and fsyncs the directory. The file
/// gets mode 0644. On failure returns false, removes the temporary file and, when `err` is not
/// null, sets it to a message naming the path and the system's reason.
[[nodiscard]] bool write_file_atomically(const std::filesystem::path& path,
                                         std::string_view content, std::string* err);

} // namespace cugrade::reports
