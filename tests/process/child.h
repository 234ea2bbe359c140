#pragma once
// Shared by the process tests: options that run the helper program, running it where starting
// must not fail, and a check that a process is gone (or only a zombie waiting for whoever
// adopted it).

#include "grader/process/process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace cugrade::process::testing {

inline spawn_options child_options(std::vector<std::string> args) {
  spawn_options options;
  options.argv = {CUGRADE_TEST_CHILD};
  options.argv.insert(options.argv.end(), args.begin(), args.end());
  return options;
}

/// Runs `options`; a failure to start is a test failure (and an empty result).
inline process_result run_ok(const spawn_options& options) {
  auto result = run_process(options);
  if (!result) {
    ADD_FAILURE() << result.error();
    return {};
  }
  return std::move(result).value();
}

/// State letter and process group of a live process from /proc/<pid>/stat, or nothing.
inline std::optional<std::pair<char, long>>
state_and_group(const std::filesystem::path& stat_file) {
  std::ifstream stat(stat_file);
  std::string text;
  std::getline(stat, text);
  const auto close = text.rfind(')'); // the command name may hold spaces and parentheses
  if (close == std::string::npos) {
    return std::nullopt;
  }
  std::istringstream fields(text.substr(close + 1));
  char state = 0;
  long parent = 0;
  long group = 0;
  fields >> state >> parent >> group;
  return std::pair{state, group};
}

/// True when the process does not exist or is only a zombie.
inline bool is_gone_now(pid_t pid) {
  const auto found = state_and_group("/proc/" + std::to_string(pid) + "/stat");
  return !found || found->first == 'Z';
}

/// True when no live (non-zombie) process belongs to the group.
inline bool group_is_gone_now(pid_t group) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const auto found = state_and_group(entry.path() / "stat");
    if (found && found->second == group && found->first != 'Z') {
      return false;
    }
  }
  return true;
}

/// Orphans are killed and reaped asynchronously: allow that two seconds.
template <class Check> bool eventually(Check check) {
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (check()) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

inline bool is_gone(pid_t pid) {
  return eventually([&] { return is_gone_now(pid); });
}

inline bool group_is_gone(pid_t group) {
  return eventually([&] { return group_is_gone_now(group); });
}

} // namespace cugrade::process::testing
