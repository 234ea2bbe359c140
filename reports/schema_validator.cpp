#include "reports/schema_validator.h"

#include "harness/core/file_io.h"

#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string_view>

namespace cugrade::reports {
namespace {

using json = nlohmann::json;

// A $ref cycle that never consumes input would recurse forever; real schemas nest a few levels.
constexpr int max_depth = 64;

const std::set<std::string, std::less<>> annotation_keywords{
    "$schema", "$id",         "$comment", "$defs",    "definitions",
    "title",   "description", "default",  "examples", "format"};
const std::set<std::string, std::less<>> checked_keywords{"type",
                                                          "enum",
                                                          "const",
                                                          "required",
                                                          "properties",
                                                          "additionalProperties",
                                                          "items",
                                                          "minItems",
                                                          "maxItems",
                                                          "minimum",
                                                          "maximum",
                                                          "exclusiveMinimum",
                                                          "exclusiveMaximum",
                                                          "minLength",
                                                          "maxLength",
                                                          "pattern",
                                                          "$ref",
                                                          "allOf",
                                                          "anyOf",
                                                          "oneOf",
                                                          "not",
                                                          "if",
                                                          "then",
                                                          "else"};

std::string pointer_token(std::string_view key) {
  std::string out;
  for (const char c : key) {
    out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  }
  return out;
}

std::string shown_value(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

std::string type_name(const json& v) {
  return v.is_number() ? "number" : std::string(v.type_name());
}

bool has_type(const json& v, std::string_view type) {
  if (type == "integer") {
    return v.is_number_integer() ||
           (v.is_number_float() && std::trunc(v.get<double>()) == v.get<double>());
  }
  if (type == "number") {
    return v.is_number();
  }
  return type == (v.is_object()    ? "object"
                  : v.is_array()   ? "array"
                  : v.is_string()  ? "string"
                  : v.is_boolean() ? "boolean"
                  : v.is_null()    ? "null"
                                   : "");
}

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) {
    n += (static_cast<unsigned char>(c) & 0xC0u) != 0x80u ? 1 : 0;
  }
  return n;
}

class validator {
public:
  explicit validator(const json& root) : m_root(root) {}

  void check(const json& schema, const json& doc, const std::string& at, const std::string& sat,
             int depth);
  [[nodiscard]] std::vector<std::string> take() { return std::move(m_errors); }

private:
  void error(const std::string& at, const std::string& what) {
    m_errors.push_back((at.empty() ? "(root)" : at) + ": " + what);
  }
  void schema_error(const std::string& sat, const std::string& what) {
    m_errors.push_back("schema error at #" + sat + ": " + what);
  }
  // Runs `schema` on `doc` into a fresh error list, leaving this validator's list alone.
  std::vector<std::string> trial(const json& schema, const json& doc, const std::string& at,
                                 const std::string& sat, int depth) {
    std::vector<std::string> saved = std::move(m_errors);
    m_errors.clear();
    check(schema, doc, at, sat, depth);
    std::swap(saved, m_errors);
    return saved;
  }

  void check_ref(const json& ref, const json& doc, const std::string& at, const std::string& sat,
                 int depth);
  void check_type(const json& types, const json& doc, const std::string& at);
  void check_values(const json& schema, const json& doc, const std::string& at);
  void check_number(const json& schema, const json& doc, const std::string& at);
  void check_string(const json& schema, const json& doc, const std::string& at,
                    const std::string& sat);
  void check_array(const json& schema, const json& doc, const std::string& at,
                   const std::string& sat, int depth);
  void check_object(const json& schema, const json& doc, const std::string& at,
                    const std::string& sat, int depth);
  void check_combinators(const json& schema, const json& doc, const std::string& at,
                         const std::string& sat, int depth);
  void check_conditional(const json& schema, const json& doc, const std::string& at,
                         const std::string& sat, int depth);
  const std::regex* regex_for(const std::string& pattern, const std::string& sat);

  const json& m_root;
  std::vector<std::string> m_errors;
  std::map<std::string, std::regex> m_regexes;
};

void validator::check(const json& schema, const json& doc, const std::string& at,
                      const std::string& sat, int depth) {
  if (depth > max_depth) {
    return schema_error(sat, "nesting deeper than " + std::to_string(max_depth) + " ($ref cycle?)");
  }
  if (schema.is_boolean()) {
    if (!schema.get<bool>()) {
      error(at, "no value is allowed here");
    }
    return;
  }
  if (!schema.is_object()) {
    return schema_error(sat, "a schema must be an object or a boolean");
  }
  for (const auto& [key, value] : schema.items()) {
    if (!annotation_keywords.contains(key) && !checked_keywords.contains(key)) {
      schema_error(sat, "unsupported keyword \"" + key + "\"");
    }
  }
  if (schema.contains("$ref")) {
    check_ref(schema["$ref"], doc, at, sat, depth);
  }
  if (schema.contains("type")) {
    check_type(schema["type"], doc, at);
  }
  check_values(schema, doc, at);
  check_number(schema, doc, at);
  check_string(schema, doc, at, sat);
  check_array(schema, doc, at, sat, depth);
  check_object(schema, doc, at, sat, depth);
  check_combinators(schema, doc, at, sat, depth);
  check_conditional(schema, doc, at, sat, depth);
}

void validator::check_ref(const json& ref, const json& doc, const std::string& at,
                          const std::string& sat, int depth) {
  if (!ref.is_string() || !ref.get<std::string>().starts_with("#")) {
    return schema_error(sat + "/$ref", "only local references (\"#...\") are supported");
  }
  const std::string target = ref.get<std::string>().substr(1);
  try {
    const json::json_pointer pointer(target);
    if (!m_root.contains(pointer)) {
      return schema_error(sat + "/$ref", "\"" + ref.get<std::string>() + "\" points nowhere");
    }
    check(m_root.at(pointer), doc, at, target, depth + 1);
  } catch (const json::exception& e) {
    schema_error(sat + "/$ref", e.what());
  }
}

void validator::check_type(const json& types, const json& doc, const std::string& at) {
  const json list = types.is_array() ? types : json::array({types});
  for (const json& t : list) {
    if (t.is_string() && has_type(doc, t.get<std::string>())) {
      return;
    }
  }
  const std::string wanted = types.is_array() ? "one of " + shown_value(types) : shown_value(types);
  error(at, "expected type " + wanted + ", got " + type_name(doc) + " " + shown_value(doc));
}

void validator::check_values(const json& schema, const json& doc, const std::string& at) {
  if (schema.contains("const") && doc != schema["const"]) {
    error(at, shown_value(doc) + " is not " + shown_value(schema["const"]));
  }
  if (!schema.contains("enum")) {
    return;
  }
  for (const json& allowed : schema["enum"]) {
    if (doc == allowed) {
      return;
    }
  }
  error(at, shown_value(doc) + " is not one of " + schema["enum"].dump());
}

void validator::check_number(const json& schema, const json& doc, const std::string& at) {
  if (!doc.is_number()) {
    return;
  }
  const double v = doc.get<double>();
  const auto bound = [&](const char* key, auto broken, const char* relation) {
    if (schema.contains(key) && schema[key].is_number() && broken(v, schema[key].get<double>())) {
      error(at, shown_value(doc) + " is " + relation + " " + shown_value(schema[key]));
    }
  };
  bound("minimum", std::less<>{}, "less than the minimum");
  bound("maximum", std::greater<>{}, "greater than the maximum");
  bound("exclusiveMinimum", std::less_equal<>{}, "not greater than");
  bound("exclusiveMaximum", std::greater_equal<>{}, "not less than");
}

const std::regex* validator::regex_for(const std::string& pattern, const std::string& sat) {
  auto it = m_regexes.find(pattern);
  if (it == m_regexes.end()) {
    try {
      it = m_regexes.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first;
    } catch (const std::regex_error& e) {
      schema_error(sat + "/pattern", "bad regular expression: " + std::string(e.what()));
      return nullptr;
    }
  }
  return &it->second;
}

void validator::check_string(const json& schema, const json& doc, const std::string& at,
                             const std::string& sat) {
  if (!doc.is_string()) {
    return;
  }
  const auto& text = doc.get_ref<const std::string&>();
  const std::size_t length = code_points(text);
  if (schema.contains("minLength") && length < schema["minLength"].get<std::size_t>()) {
    error(at, shown_value(doc) + " is shorter than " + schema["minLength"].dump() + " characters");
  }
  if (schema.contains("maxLength") && length > schema["maxLength"].get<std::size_t>()) {
    error(at, shown_value(doc) + " is longer than " + schema["maxLength"].dump() + " characters");
  }
  if (schema.contains("pattern") && schema["pattern"].is_string()) {
    const std::regex* re = regex_for(schema["pattern"].get<std::string>(), sat);
    if (re != nullptr && !std::regex_search(text, *re)) {
      error(at, shown_value(doc) + " does not match the pattern " + shown_value(schema["pattern"]));
    }
  }
}

void validator::check_array(const json& schema, const json& doc, const std::string& at,
                            const std::string& sat, int depth) {
  if (!doc.is_array()) {
    return;
  }
  if (schema.contains("minItems") && doc.size() < schema["minItems"].get<std::size_t>()) {
    error(at,
          "has " + std::to_string(doc.size()) + " items, fewer than " + schema["minItems"].dump());
  }
  if (schema.contains("maxItems") && doc.size() > schema["maxItems"].get<std::size_t>()) {
    error(at,
          "has " + std::to_string(doc.size()) + " items, more than " + schema["maxItems"].dump());
  }
  if (schema.contains("items")) {
    for (std::size_t i = 0; i < doc.size(); ++i) {
      check(schema["items"], doc[i], at + "/" + std::to_string(i), sat + "/items", depth + 1);
    }
  }
}

void validator::check_object(const json& schema, const json& doc, const std::string& at,
                             const std::string& sat, int depth) {
  if (!doc.is_object()) {
    return;
  }
  for (const json& name : schema.value("required", json::array())) {
    if (name.is_string() && !doc.contains(name.get<std::string>())) {
      error(at, "missing required property " + shown_value(name));
    }
  }
  const json properties = schema.value("properties", json::object());
  for (const auto& [key, value] : doc.items()) {
    const std::string where = at + "/" + pointer_token(key);
    if (properties.contains(key)) {
      check(properties[key], value, where, sat + "/properties/" + pointer_token(key), depth + 1);
    } else if (schema.contains("additionalProperties")) {
      const json& extra = schema["additionalProperties"];
      if (extra.is_boolean() && !extra.get<bool>()) {
        error(where, "property \"" + key + "\" is not allowed here");
      } else {
        check(extra, value, where, sat + "/additionalProperties", depth + 1);
      }
    }
  }
}

void validator::check_combinators(const json& schema, const json& doc, const std::string& at,
                                  const std::string& sat, int depth) {
  for (std::size_t i = 0; schema.contains("allOf") && i < schema["allOf"].size(); ++i) {
    check(schema["allOf"][i], doc, at, sat + "/allOf/" + std::to_string(i), depth + 1);
  }
  for (const char* keyword : {"anyOf", "oneOf"}) {
    if (!schema.contains(keyword)) {
      continue;
    }
    const json& options = schema[keyword];
    std::size_t matches = 0;
    std::vector<std::string> closest;
    for (std::size_t i = 0; i < options.size(); ++i) {
      auto errors =
          trial(options[i], doc, at, sat + "/" + keyword + "/" + std::to_string(i), depth + 1);
      matches += errors.empty() ? 1 : 0;
      if (!errors.empty() && (closest.empty() || errors.size() < closest.size())) {
        closest = std::move(errors);
      }
    }
    if (matches == 0) {
      std::string detail;
      for (const std::string& e : closest) {
        detail += (detail.empty() ? "" : "; ") + e;
      }
      error(at, "matches none of the " + std::to_string(options.size()) + " alternatives of " +
                    keyword + " (closest: " + detail + ")");
    } else if (matches > 1 && std::string_view(keyword) == "oneOf") {
      error(at, "matches " + std::to_string(matches) + " alternatives of oneOf; exactly one may");
    }
  }
  if (schema.contains("not") && trial(schema["not"], doc, at, sat + "/not", depth + 1).empty()) {
    error(at, shown_value(doc) + " matches a schema it must not match (" + sat + "/not)");
  }
}

void validator::check_conditional(const json& schema, const json& doc, const std::string& at,
                                  const std::string& sat, int depth) {
  if (!schema.contains("if")) {
    return;
  }
  const bool holds = trial(schema["if"], doc, at, sat + "/if", depth + 1).empty();
  const char* branch = holds ? "then" : "else";
  if (schema.contains(branch)) {
    check(schema[branch], doc, at, sat + "/" + branch, depth + 1);
  }
}

} // namespace

std::vector<std::string> validate(const nlohmann::json& schema, const nlohmann::json& doc) {
  validator v(schema);
  v.check(schema, doc, "", "", 0);
  return v.take();
}

std::vector<std::string> validate_report(const nlohmann::json& doc,
                                         const std::filesystem::path& schema_path) {
  const auto text = read_file(schema_path);
  if (!text) {
    return {text.error() + "; pass the path of reports/schema/report.schema.json"};
  }
  const json schema = json::parse(*text, nullptr, false);
  if (schema.is_discarded()) {
    return {schema_path.string() + ": the report schema is not valid JSON"};
  }
  return validate(schema, doc);
}

std::vector<std::string> validate_report(const nlohmann::json& doc) {
  return validate(report_schema(), doc);
}

} // namespace cugrade::reports
