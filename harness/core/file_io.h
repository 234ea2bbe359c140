#pragma once
/// \file
/// Whole files in and out: reading a file into a string, and writing one so that readers see
/// the old content or the new, never a torn mix (a batch killed mid-write by Slurm preemption or
/// Ctrl-C leaves no half report, plan or cache entry behind).

#include "harness/core/result.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace cugrade {

/// The bytes of `path`. The error names the path and the system's reason ("No such file or
/// directory"); a directory or unreadable file is an error, an empty file is "".
[[nodiscard]] result<std::string> read_file(const std::filesystem::path& path);

/// Writes `content` to `path` atomically: creates the parent directories, writes a temporary file
/// in the same directory, fsyncs it, renames it over `path` and fsyncs the directory. The file
/// gets mode 0644. On failure removes the temporary file; the error names the path and the
/// system's reason.
[[nodiscard]] result<void> write_file_atomically(const std::filesystem::path& path,
                                                 std::string_view content);

/// What tells one version of a file at `path` from the next (a library rebuilt or reinstalled
/// there): "size mtime-seconds mtime-nanoseconds inode", following links; "" when it cannot be
/// read (gone).
[[nodiscard]] std::string file_stamp(const std::filesystem::path& path);

} // namespace cugrade
