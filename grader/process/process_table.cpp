#include "grader/process/process_table.h"

#include "harness/core/file_io.h"

#include <filesystem>
#include <sstream>

namespace cugrade::process {

std::vector<pid_t> running_pids() {
  std::vector<pid_t> pids;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos) {
      pids.push_back(static_cast<pid_t>(std::stol(name)));
    }
  }
  return pids;
}

std::optional<std::string> command_line(pid_t pid) {
  auto line = read_file("/proc/" + std::to_string(pid) + "/cmdline");
  if (!line || line->empty()) {
    return std::nullopt;
  }
  return std::move(*line);
}

std::optional<pid_t> parent_of(pid_t pid) {
  // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses, so read after the last ')'.
  const auto stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) {
    return std::nullopt;
  }
  const auto close = stat->rfind(')');
  if (close == std::string::npos) {
    return std::nullopt;
  }
  std::istringstream rest(stat->substr(close + 1));
  char state = 0;
  long parent = -1;
  if (!(rest >> state >> parent) || parent < 0) {
    return std::nullopt;
  }
  return static_cast<pid_t>(parent);
}

bool descends_from(pid_t pid, pid_t ancestor) {
  // A chain of parents ends above init and the kernel's threads, whose parent is 0.
  for (auto parent = parent_of(pid); parent && *parent > 0; parent = parent_of(*parent)) {
    if (*parent == ancestor) {
      return true;
    }
  }
  return false;
}

std::string program_name(const std::string& command_line) {
  return std::filesystem::path(command_line.substr(0, command_line.find('\0'))).filename().string();
}

} // namespace cugrade::process
