#pragma once
/// \file
/// An exclusive advisory lock on a cache entry, so two graders updating the same clone (a batch
/// run and a TA's re-grade) take turns instead of corrupting each other's refs.

#include "harness/core/result.h"

#include <filesystem>

namespace cugrade::fetch::detail {

class file_lock {
public:
  /// Blocks until the lock on `path` (created if missing) is held.
  [[nodiscard]] static cugrade::result<file_lock> acquire(const std::filesystem::path& path);

  file_lock(file_lock&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }
  file_lock& operator=(file_lock&&) = delete;
  file_lock(const file_lock&) = delete;
  file_lock& operator=(const file_lock&) = delete;
  ~file_lock();

private:
  explicit file_lock(int fd) : m_fd(fd) {}
  int m_fd = -1;
};

} // namespace cugrade::fetch::detail
