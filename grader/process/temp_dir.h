#pragma once
/// \file
/// A private temporary directory that is removed, with everything in it, when its owner goes.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace cugrade::process {

/// Created with mkdtemp (mode 0700) under `parent` (default: the system's temp directory) with a
/// name starting with `prefix`. Movable, not copyable. Throws cugrade::error when it cannot be
/// created: that is the grader's machine failing, not the student.
class temp_dir {
public:
  explicit temp_dir(std::string_view prefix = "cugrade",
                    const std::filesystem::path& parent = std::filesystem::temp_directory_path());
  temp_dir(temp_dir&& other) noexcept;
  temp_dir& operator=(temp_dir&& other) noexcept;
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir();

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }

  /// Leaves the directory in place on destruction (to inspect a failed build, say).
  void keep() noexcept { m_keep = true; }

private:
  void remove() noexcept;

  std::filesystem::path m_path;
  bool m_keep = false;
};

/// A temp_dir prefix that names this process: "<prefix>-<pid>", for remove_orphaned_dirs.
[[nodiscard]] std::string owned_prefix(std::string_view prefix);

/// Removes folders under `parent` named "<prefix>-<pid>-..." whose process no longer exists:
/// what a killed grading left behind, first stopping any sandbox (bwrap) or cugrade runner still
/// running with a path inside one in its command line. Returns how many folders it removed.
std::size_t remove_orphaned_dirs(const std::filesystem::path& parent, std::string_view prefix);

} // namespace cugrade::process
