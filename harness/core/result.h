#pragma once
/// \file
/// `result<T>`: a value or an operational error message, for failures a user can fix
/// (the message names the file, the field and the fix). C++20 has no std::expected.

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace cugrade {

/// Whose problem a failure is. Set where the failure arises (the fetcher knows an unknown
/// --commit from a network outage); the command line turns it into an exit code.
enum class failure_kind {
  infrastructure, ///< the machine, toolchain or network: not gradable, graded again later
  usage,          ///< whoever runs cugrade gave a bad option, path or commit: fix and rerun
  submission,     ///< the submission itself (an empty repository): a verdict in the report
};

/// The error side of a result: a message written for the person who must fix it.
struct failure {
  std::string message;
  failure_kind kind = failure_kind::infrastructure;
};

template <class T> class [[nodiscard]] result {
public:
  result(T value) : m_state(std::move(value)) {}
  result(failure f) : m_state(std::move(f)) {}

  [[nodiscard]] bool ok() const noexcept { return std::holds_alternative<T>(m_state); }
  explicit operator bool() const noexcept { return ok(); }

  [[nodiscard]] T& value() & { return std::get<T>(m_state); }
  [[nodiscard]] const T& value() const& { return std::get<T>(m_state); }
  [[nodiscard]] T&& value() && { return std::get<T>(std::move(m_state)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  [[nodiscard]] const std::string& error() const { return std::get<failure>(m_state).message; }
  /// The whole failure, to pass on with its kind: `return other.why();`.
  [[nodiscard]] const failure& why() const { return std::get<failure>(m_state); }

private:
  std::variant<T, failure> m_state;
};

/// A result with no value: success, or a failure message.
template <> class [[nodiscard]] result<void> {
public:
  result() = default;
  result(failure f) : m_failure(std::move(f)) {}
  [[nodiscard]] bool ok() const noexcept { return !m_failure.has_value(); }
  explicit operator bool() const noexcept { return ok(); }
  [[nodiscard]] const std::string& error() const { return m_failure->message; }
  [[nodiscard]] const failure& why() const { return *m_failure; }

private:
  std::optional<failure> m_failure;
};

/// Shorthand: `return fail("assignment.json: field \"kernels\" ...");`
inline failure fail(std::string message) {
  return failure{std::move(message), failure_kind::infrastructure};
}

/// A mistake of whoever runs cugrade (a bad option value, an unknown commit, a missing path).
inline failure fail_usage(std::string message) {
  return failure{std::move(message), failure_kind::usage};
}

/// A problem of the submission itself, graded as a verdict.
inline failure fail_submission(std::string message) {
  return failure{std::move(message), failure_kind::submission};
}

} // namespace cugrade
