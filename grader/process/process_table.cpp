#include "grader/process/process_table.h"

#include "harness/core/file_io.h"

#include <filesystem>

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

std::string program_name(const std::string& command_line) {
  return std::filesystem::path(command_line.substr(0, command_line.find('\0')))
      .filename()
      .string();
}

} // namespace cugrade::process
