#pragma once
/// \file
/// The bwrap command line for one confined run: a pure function of its inputs, so the file
/// system view and the namespaces it asks for can be tested without running anything.

#include "grader/sandbox/sandbox.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace cugrade::sandbox::detail {

/// Everything bwrap_argv needs; paths are host paths, shown at the same place inside.
struct bwrap_call {
  std::filesystem::path bwrap;
  profile view;
  /// Variables inside the sandbox (after --clearenv).
  std::vector<std::pair<std::string, std::string>> env;
  std::filesystem::path working_dir; ///< inside; "/" when empty
  int seccomp_fd = -1;               ///< -1: no filter (only for tests)
};

/// The unprivileged identity inside: nobody/nogroup.
inline constexpr int sandbox_uid = 65534;
inline constexpr int sandbox_gid = 65534;

/// `bwrap <options> --` ; the program and its arguments follow.
[[nodiscard]] std::vector<std::string> bwrap_argv(const bwrap_call& call);

/// The host paths a profile's bind mounts name, canonical and in mount order (parents first).
[[nodiscard]] std::vector<std::filesystem::path>
mount_order(const std::vector<std::filesystem::path>& paths);

} // namespace cugrade::sandbox::detail
