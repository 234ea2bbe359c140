#pragma once
/// \file
/// Validation plumbing for spec files: JSON paths, an error collector and typed field readers.
/// Every message reads "<file>: <json path>: <what is wrong>; <how to fix it>".

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::spec::detail {

using json = nlohmann::json;

/// "a.b" (or "b" at the root).
[[nodiscard]] std::string child(std::string_view path, std::string_view key);
/// "a[3]".
[[nodiscard]] std::string element(std::string_view path, std::size_t index);
/// A number as a person would write it: "0", "1.5", "-3".
[[nodiscard]] std::string number_text(double x);
/// A value as a message shows it: `string "10"`, `number -3`, `an object`, `null`.
[[nodiscard]] std::string describe(const json& value);

/// Collects every validation error found in one file.
class diagnostics {
public:
  explicit diagnostics(std::string file) : m_file(std::move(file)) {}

  /// Records "<file>: <path>: <what>"; an empty path gives "<file>: <what>".
  void error(std::string_view path, std::string_view what);
  [[nodiscard]] bool empty() const { return m_errors.empty(); }
  [[nodiscard]] const std::string& file() const { return m_file; }
  /// One line per error.
  [[nodiscard]] std::string message() const;

private:
  std::string m_file;
  std::vector<std::string> m_errors;
};

/// What a field must hold.
enum class value_kind { string, number, whole, object, array };

/// Checks that `value` (at `path`) is a `kind`; reports and returns false otherwise. `example` is
/// a right value, shown in the fix.
bool expect_kind(const json& value, value_kind kind, std::string_view path,
                 std::string_view example, diagnostics& diag);

/// Typed access to the fields of one JSON object; each problem is reported to the diagnostics.
/// `example` arguments are right values for the field, shown in the fix.
class object_reader {
public:
  object_reader(const json& object, std::string path, diagnostics& diag)
      : m_object(object), m_path(std::move(path)), m_diag(diag) {}

  [[nodiscard]] const std::string& path() const { return m_path; }
  [[nodiscard]] std::string path_of(std::string_view key) const { return child(m_path, key); }
  [[nodiscard]] diagnostics& diag() const { return m_diag; }

  /// The field if present, of any kind; nullptr otherwise (reported when required).
  const json* find(std::string_view key, std::string_view example, bool required);
  /// The field if present and of `kind`; nullptr otherwise (reported when required or mistyped).
  const json* get(std::string_view key, value_kind kind, std::string_view example, bool required);
  std::optional<std::string> text(std::string_view key, std::string_view example, bool required);
  std::optional<double> number(std::string_view key, std::string_view example, bool required);
  std::optional<std::int64_t> whole(std::string_view key, std::string_view example, bool required);
  std::optional<std::uint64_t> unsigned_whole(std::string_view key, std::string_view example,
                                              bool required);
  /// The field if present and true or false; nullopt otherwise (reported when required or
  /// mistyped).
  std::optional<bool> flag(std::string_view key, std::string_view example, bool required);
  /// Reports every key not in `known`, suggesting the nearest known key.
  void reject_unknown_keys(const std::vector<std::string>& known);

private:
  const json& m_object;
  std::string m_path;
  diagnostics& m_diag;
};

} // namespace cugrade::spec::detail
