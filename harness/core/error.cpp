#include "harness/core/error.h"

#include <filesystem>

namespace cugrade {

namespace {
std::string with_location(const std::string& message, const std::source_location& where) {
  return std::filesystem::path(where.file_name()).filename().string() + ":" +
         std::to_string(where.line()) + ": " + message;
}
} // namespace

error::error(const std::string& message, std::source_location where)
    : std::runtime_error(with_location(message, where)), m_where(where) {}

void throw_error(const std::string& message, std::source_location where) {
  throw error(message, where);
}

} // namespace cugrade
