#include "grader/process/temp_dir.h"

#include "harness/core/error.h"

#include <stdlib.h>

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

} // namespace cugrade::process
