#pragma once
/// \file
/// A per-run cgroup holding one confined run: a memory ceiling (so a hog is killed alone, never
/// a neighbour) and a process ceiling. cgroup v2 (memory.max, pids.max) where the grader's own
/// cgroup delegates the memory controller, else a writable cgroup v1 memory (and pids)
/// hierarchy; when neither exists, `create` returns nothing and the caller falls back to
/// RLIMIT_AS.

#include "harness/core/result.h"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::sandbox {

class memory_ceiling {
public:
  /// A fresh cgroup (or pair of v1 cgroups) with the limits set, or nothing when this machine
  /// offers no writable memory controller.
  [[nodiscard]] static std::unique_ptr<memory_ceiling> create(std::size_t memory_bytes,
                                                              int max_pids);
  /// Kills whatever is left in the cgroups, waits until they are empty, removes them.
  ~memory_ceiling();
  memory_ceiling(const memory_ceiling&) = delete;
  memory_ceiling& operator=(const memory_ceiling&) = delete;

  /// The cgroup.procs files the child must join.
  [[nodiscard]] const std::vector<std::filesystem::path>& procs_files() const { return m_procs; }
  /// "cgroup v2" or "cgroup v1".
  [[nodiscard]] const std::string& kind() const { return m_kind; }
  /// The kernel's OOM killer acted (or an allocation hit the ceiling) in this cgroup.
  [[nodiscard]] bool exhausted() const;

private:
  memory_ceiling() = default;
  std::string m_kind;
  std::vector<std::filesystem::path> m_dirs; // memory first
  std::vector<std::filesystem::path> m_procs;
};

} // namespace cugrade::sandbox
