#include "grader/spec/detail/diagnostics.h"

#include "grader/spec/suggest.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cugrade::spec::detail {

namespace {

std::string_view kind_name(value_kind kind) {
  switch (kind) {
  case value_kind::string:
    return "a string";
  case value_kind::number:
    return "a number";
  case value_kind::whole:
    return "a whole number";
  case value_kind::object:
    return "an object {...}";
  case value_kind::array:
    return "an array [...]";
  }
  return "a value";
}

bool is_whole(const json& value) {
  if (value.is_number_integer())
    return true;
  if (!value.is_number_float())
    return false;
  // 1e3 is a whole number too; JSON writers are free to print it that way.
  const double x = value.get<double>();
  return std::isfinite(x) && std::trunc(x) == x && std::fabs(x) < 9.0e15;
}

bool has_kind(const json& value, value_kind kind) {
  switch (kind) {
  case value_kind::string:
    return value.is_string();
  case value_kind::number:
    return value.is_number();
  case value_kind::whole:
    return is_whole(value);
  case value_kind::object:
    return value.is_object();
  case value_kind::array:
    return value.is_array();
  }
  return false;
}

// "10" where a number belongs is the commonest slip; say so rather than just "wrong type".
bool is_quoted_number(const json& value) {
  if (!value.is_string())
    return false;
  const auto& s = value.get_ref<const std::string&>();
  return !s.empty() && json::accept(s) && json::parse(s).is_number();
}

} // namespace

std::string child(std::string_view path, std::string_view key) {
  if (path.empty())
    return std::string(key);
  return std::string(path) + "." + std::string(key);
}

std::string element(std::string_view path, std::size_t index) {
  return std::string(path) + "[" + std::to_string(index) + "]";
}

std::string number_text(double x) {
  // nlohmann prints 0.0 for a double zero; people wrote 0.
  if (std::isfinite(x) && std::trunc(x) == x && std::fabs(x) < 1e15)
    return std::to_string(static_cast<long long>(x));
  return json(x).dump();
}

std::string describe(const json& value) {
  if (value.is_string()) {
    std::string s = value.get<std::string>();
    if (s.size() > 40)
      s = s.substr(0, 37) + "...";
    return "string " + json(s).dump();
  }
  if (value.is_number())
    return "number " + value.dump();
  if (value.is_boolean())
    return "boolean " + value.dump();
  if (value.is_object())
    return "an object";
  if (value.is_array())
    return "an array";
  return "null";
}

void diagnostics::error(std::string_view path, std::string_view what) {
  std::string line = m_file + ": ";
  if (!path.empty())
    line += std::string(path) + ": ";
  m_errors.push_back(line + std::string(what));
}

std::string diagnostics::message() const {
  return join(m_errors, "\n");
}

bool expect_kind(const json& value, value_kind kind, std::string_view path,
                 std::string_view example, diagnostics& diag) {
  if (has_kind(value, kind))
    return true;
  std::string what = "expected " + std::string(kind_name(kind)) + ", got " + describe(value);
  if (kind == value_kind::whole && value.is_number())
    what += " (no fraction allowed)";
  const bool unquote =
      (kind == value_kind::number || kind == value_kind::whole) && is_quoted_number(value);
  what += unquote ? "; write it without quotes, e.g. " : "; write e.g. ";
  diag.error(path, what + std::string(example));
  return false;
}

const json* object_reader::find(std::string_view key, std::string_view example, bool required) {
  const auto it = m_object.find(key);
  if (it != m_object.end())
    return &*it;
  if (required)
    m_diag.error(m_path, "required field \"" + std::string(key) + "\" is missing; add " +
                             json(std::string(key)).dump() + ": " + std::string(example));
  return nullptr;
}

const json* object_reader::get(std::string_view key, value_kind kind, std::string_view example,
                               bool required) {
  const json* value = find(key, example, required);
  if (value == nullptr)
    return nullptr;
  const std::string full_example = json(std::string(key)).dump() + ": " + std::string(example);
  return expect_kind(*value, kind, path_of(key), full_example, m_diag) ? value : nullptr;
}

std::optional<std::string> object_reader::text(std::string_view key, std::string_view example,
                                               bool required) {
  const json* value = get(key, value_kind::string, example, required);
  return value ? std::optional(value->get<std::string>()) : std::nullopt;
}

std::optional<double> object_reader::number(std::string_view key, std::string_view example,
                                            bool required) {
  const json* value = get(key, value_kind::number, example, required);
  return value ? std::optional(value->get<double>()) : std::nullopt;
}

std::optional<std::int64_t> object_reader::whole(std::string_view key, std::string_view example,
                                                 bool required) {
  const json* value = get(key, value_kind::whole, example, required);
  if (value == nullptr)
    return std::nullopt;
  if (value->is_number_float())
    return static_cast<std::int64_t>(value->get<double>());
  if (value->is_number_unsigned() &&
      value->get<std::uint64_t>() > std::uint64_t{std::numeric_limits<std::int64_t>::max()}) {
    m_diag.error(path_of(key), value->dump() + " is too large; write e.g. " + std::string(example));
    return std::nullopt;
  }
  return value->get<std::int64_t>();
}

std::optional<std::uint64_t>
object_reader::unsigned_whole(std::string_view key, std::string_view example, bool required) {
  const json* value = get(key, value_kind::whole, example, required);
  if (value == nullptr)
    return std::nullopt;
  const bool negative = value->is_number_float()
                            ? value->get<double>() < 0
                            : !value->is_number_unsigned() && value->get<std::int64_t>() < 0;
  if (negative) {
    m_diag.error(path_of(key), "expected a whole number >= 0, got " + describe(*value) +
                                   "; write e.g. \"" + std::string(key) +
                                   "\": " + std::string(example));
    return std::nullopt;
  }
  return value->is_number_float() ? static_cast<std::uint64_t>(value->get<double>())
                                  : value->get<std::uint64_t>();
}

std::optional<bool> object_reader::flag(std::string_view key, std::string_view example,
                                        bool required) {
  const json* value = find(key, example, required);
  if (value == nullptr)
    return std::nullopt;
  if (!value->is_boolean()) {
    m_diag.error(path_of(key), "expected true or false, got " + describe(*value) + "; write \"" +
                                   std::string(key) + "\": " + std::string(example));
    return std::nullopt;
  }
  return value->get<bool>();
}

void object_reader::reject_unknown_keys(const std::vector<std::string>& known) {
  for (const auto& [key, value] : m_object.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end())
      continue;
    std::string what = "unknown field \"" + key + "\"";
    if (auto match = closest_match(key, known))
      what += "; did you mean \"" + *match + "\"?";
    else
      what += "; remove it (known fields here: " + join(known, ", ") + ")";
    m_diag.error(path_of(key), what);
  }
}

} // namespace cugrade::spec::detail
