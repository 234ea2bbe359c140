#pragma once
/// \file
/// The project's one exception type, for bugs and infrastructure faults only.
///
/// What a student's code does is data (a status in a report); expected operational failures
/// (a spec with a typo, a repository that cannot be fetched) travel as `result<T>` values.
/// Everything else throws `cugrade::error` through CUGRADE_THROW, which records file:line.

#include <source_location>
#include <stdexcept>
#include <string>

namespace cugrade {

/// An internal fault: a broken invariant, a failed system call, a toolchain that vanished.
class error : public std::runtime_error {
public:
  error(const std::string& message, std::source_location where);
  [[nodiscard]] const std::source_location& where() const noexcept { return m_where; }

private:
  std::source_location m_where;
};

/// Throws cugrade::error; out of line so call sites stay small.
[[noreturn]] void throw_error(const std::string& message,
                              std::source_location where = std::source_location::current());

} // namespace cugrade

#define CUGRADE_THROW(message) ::cugrade::throw_error((message), std::source_location::current())
