#include "grader/spec/detail/json_document.h"

#include "grader/spec/detail/diagnostics.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace cugrade::spec::detail {

namespace {

// Builds the document like nlohmann's own DOM parser, but knows the JSON path of every value, so
// it can say where a syntax error or a repeated key sits.
class tracking_builder {
public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  bool null() { return place(json(nullptr)); }
  bool boolean(bool v) { return place(json(v)); }
  bool number_integer(number_integer_t v) { return place(json(v)); }
  bool number_unsigned(number_unsigned_t v) { return place(json(v)); }
  bool number_float(number_float_t v, const string_t&) { return place(json(v)); }
  bool string(string_t& v) { return place(json(v)); }
  bool binary(binary_t& v) { return place(json::binary(v)); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(string_t& name) {
    frame& top = m_stack.back();
    if (!top.keys.insert(name).second) {
      m_duplicate = child(top.path, name);
      return false;
    }
    top.key = name;
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) {
    // `position` counts the characters read, up to the end of the offending token; point at the
    // token's first character instead (escaped control characters make the length unreliable).
    const bool plain = last_token.find("<U+") == std::string::npos;
    const std::size_t length = plain && !last_token.empty() ? last_token.size() : 1;
    m_error_position = position >= length ? position - length : 0;
    m_error_text = ex.what();
    return false;
  }

  json& root() { return m_root; }
  [[nodiscard]] const std::string& duplicate() const { return m_duplicate; }
  [[nodiscard]] std::size_t error_position() const { return m_error_position; }
  [[nodiscard]] const std::string& error_text() const { return m_error_text; }
  /// The path of the innermost open container, "" at the top.
  [[nodiscard]] std::string open_path() const {
    return m_stack.empty() ? std::string() : m_stack.back().path;
  }

private:
  struct frame {
    json* node = nullptr;
    std::string path;
    std::set<std::string> keys;
    std::string key;
  };

  std::string next_path() const {
    if (m_stack.empty())
      return {};
    const frame& top = m_stack.back();
    return top.node->is_array() ? element(top.path, top.node->size()) : child(top.path, top.key);
  }

  json* insert(json value) {
    if (m_stack.empty()) {
      m_root = std::move(value);
      return &m_root;
    }
    json& parent = *m_stack.back().node;
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    json& slot = parent[m_stack.back().key];
    slot = std::move(value);
    return &slot;
  }

  bool place(json value) {
    insert(std::move(value));
    return true;
  }

  bool open(json container) {
    std::string path = next_path();
    json* node = insert(std::move(container));
    m_stack.push_back(frame{node, std::move(path), {}, {}});
    return true;
  }

  bool close() {
    m_stack.pop_back();
    return true;
  }

  json m_root;
  std::vector<frame> m_stack;
  std::string m_duplicate;
  std::size_t m_error_position = 0;
  std::string m_error_text;
};

// nlohmann's text is "[json.exception.parse_error.101] parse error at line 1, column 2: syntax
// error while parsing value - ..."; keep only what follows the position, which we compute.
std::string explanation(const std::string& what) {
  const auto start = what.find("parse error");
  const auto colon = what.find(": ", start == std::string::npos ? 0 : start);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

} // namespace

text_position position_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  text_position p;
  p.line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const auto last_newline = before.rfind('\n');
  p.column = 1 + (last_newline == std::string_view::npos ? offset : offset - last_newline - 1);
  return p;
}

result<nlohmann::json> parse_json(std::string_view text, std::string_view file) {
  tracking_builder builder;
  if (json::sax_parse(text, &builder))
    return std::move(builder.root());
  if (!builder.duplicate().empty())
    return fail(std::string(file) + ": " + builder.duplicate() +
                ": this key appears twice in one object; keep one of them");
  const text_position p = position_of(text, builder.error_position());
  std::string where = "line " + std::to_string(p.line) + ", column " + std::to_string(p.column);
  if (!builder.open_path().empty())
    where += " (inside " + builder.open_path() + ")";
  return fail(std::string(file) + ": " + where +
              ": invalid JSON: " + explanation(builder.error_text()) +
              "; look for a missing or extra comma, quote, bracket or brace there (JSON allows no "
              "comments and no comma after the last item)");
}

} // namespace cugrade::spec::detail
