#include "grader/process/process.h"

#include <unistd.h>

#include <cstdlib>
#include <system_error>

namespace cugrade::process {
namespace {

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error) && access(path.c_str(), X_OK) == 0;
}

} // namespace

std::optional<std::filesystem::path> find_program(std::string_view name) {
  if (name.empty()) {
    return std::nullopt;
  }
  if (name.find('/') != std::string_view::npos) {
    return is_executable_file(name) ? std::optional<std::filesystem::path>(name) : std::nullopt;
  }
  const char* path_variable = std::getenv("PATH");
  const std::string_view search = path_variable != nullptr ? path_variable : "/usr/bin:/bin";
  std::size_t begin = 0;
  while (begin <= search.size()) {
    const std::size_t end = std::min(search.find(':', begin), search.size());
    // An empty PATH entry means the current directory, as in execvp.
    const std::string_view dir = search.substr(begin, end - begin);
    const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
    if (is_executable_file(candidate)) {
      return candidate;
    }
    begin = end + 1;
  }
  return std::nullopt;
}

} // namespace cugrade::process
