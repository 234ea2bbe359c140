#include "grader/process/temp_dir.h"

#include "grader/process/process_table.h"
#include "harness/core/error.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>

namespace cugrade::process {

temp_dir::temp_dir(std::string_view prefix, const std::filesystem::path& parent) {
  std::string pattern = (parent / (std::string(prefix) + "-XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) {
    CUGRADE_THROW("cannot create a temporary directory " + pattern + ": " + std::strerror(errno) +
                  " (is the parent writable and not full?)");
  }
  m_path = pattern;
}

temp_dir::temp_dir(temp_dir&& other) noexcept
    : m_path(std::exchange(other.m_path, {})), m_keep(other.m_keep) {}

temp_dir& temp_dir::operator=(temp_dir&& other) noexcept {
  if (this != &other) {
    remove();
    m_path = std::exchange(other.m_path, {});
    m_keep = other.m_keep;
  }
  return *this;
}

temp_dir::~temp_dir() {
  remove();
}

void temp_dir::remove() noexcept {
  if (!m_path.empty() && !m_keep) {
    std::error_code ignored; // a destructor cannot report; a leftover temp dir is harmless
    std::filesystem::remove_all(m_path, ignored);
  }
  m_path.clear();
}

std::string owned_prefix(std::string_view prefix) {
  return std::string(prefix) + "-" + std::to_string(::getpid());
}

namespace {

// Stops what a killed grading left running in `dir`: a sandbox (bwrap) or a runner whose command
// line names a path inside it. bubblewrap's --die-with-parent misses a parent killed while the
// sandbox starts (bubblewrap issue #633): the sandbox's first process then waits for it forever.
void stop_leftovers(const std::filesystem::path& dir) {
  const std::string inside = dir.string() + "/";
  for (const pid_t pid : running_pids()) {
    const auto line = command_line(pid); // gone meanwhile: not ours to stop
    if (!line) {
      continue;
    }
    const std::string program = program_name(*line);
    if ((program == "bwrap" || program.rfind("cugrade-runner", 0) == 0) &&
        line->find(inside) != std::string::npos) {
      ::kill(pid, SIGKILL);
    }
  }
}

} // namespace

std::size_t remove_orphaned_dirs(const std::filesystem::path& parent, std::string_view prefix) {
  std::size_t removed = 0;
  std::error_code error;
  const std::string start = std::string(prefix) + "-";
  for (const auto& entry : std::filesystem::directory_iterator(parent, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(start, 0) != 0) {
      continue;
    }
    const std::string rest = name.substr(start.size());
    const auto dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || rest.find_first_not_of("0123456789") != dash) {
      continue;
    }
    const auto pid = static_cast<pid_t>(std::stol(rest.substr(0, dash)));
    if (::kill(pid, 0) != 0 && errno == ESRCH) {
      stop_leftovers(entry.path());
      std::error_code ignored;
      removed += std::filesystem::remove_all(entry.path(), ignored) > 0 ? 1 : 0;
    }
  }
  return removed;
}

} // namespace cugrade::process
