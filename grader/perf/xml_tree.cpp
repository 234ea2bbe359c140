#include "grader/perf/xml_tree.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <utility>

namespace cugrade::perf {

namespace {

class xml_parser {
public:
  explicit xml_parser(std::string_view text) : m_text(text) {}

  result<xml_element> document() {
    skip_misc();
    xml_element root;
    if (!element(root)) {
      return fail(m_error);
    }
    skip_misc();
    if (m_at != m_text.size()) {
      return fail(error_at("content after the root element"));
    }
    return root;
  }

private:
  std::string error_at(const std::string& what) const {
    return "XML: " + what + " at byte " + std::to_string(m_at);
  }
  bool failed(const std::string& what) {
    m_error = error_at(what);
    return false;
  }
  bool starts(std::string_view s) const { return m_text.substr(m_at).starts_with(s); }
  void skip_space() {
    while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at])) != 0) {
      ++m_at;
    }
  }
  // Skips past `end`; false if it never comes.
  bool skip_past(std::string_view end) {
    const auto found = m_text.find(end, m_at);
    if (found == std::string_view::npos) {
      return false;
    }
    m_at = found + end.size();
    return true;
  }
  // Whitespace, the declaration, processing instructions, comments and a doctype.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts("<?")) {
        skip_past("?>");
      } else if (starts("<!--")) {
        skip_past("-->");
      } else if (starts("<!DOCTYPE")) {
        skip_past(">");
      } else {
        return;
      }
    }
  }

  std::string name() {
    const std::size_t start = m_at;
    while (m_at < m_text.size() &&
           (std::isalnum(static_cast<unsigned char>(m_text[m_at])) != 0 || m_text[m_at] == '_' ||
            m_text[m_at] == '-' || m_text[m_at] == ':' || m_text[m_at] == '.')) {
      ++m_at;
    }
    return std::string(m_text.substr(start, m_at - start));
  }

  // Start tag; attributes are skipped (quoted values may hold '>'). Sets `empty` for <a/>.
  bool start_tag(xml_element& e, bool& empty) {
    ++m_at; // '<'
    e.name = name();
    if (e.name.empty()) {
      return failed("an element without a name");
    }
    while (m_at < m_text.size() && m_text[m_at] != '>') {
      if (m_text[m_at] == '"' || m_text[m_at] == '\'') {
        const char quote = m_text[m_at++];
        const auto close = m_text.find(quote, m_at);
        if (close == std::string_view::npos) {
          return failed("an unterminated attribute value");
        }
        m_at = close;
      }
      ++m_at;
    }
    if (m_at >= m_text.size()) {
      return failed("an unterminated start tag <" + e.name);
    }
    empty = m_text[m_at - 1] == '/';
    ++m_at;
    return true;
  }

  bool element(xml_element& e) {
    if (!starts("<")) {
      return failed("expected an element");
    }
    bool empty = false;
    if (!start_tag(e, empty)) {
      return false;
    }
    return empty || content(e);
  }

  bool content(xml_element& e) {
    std::string text;
    while (m_at < m_text.size()) {
      if (starts("</")) {
        m_at += 2;
        const std::string closing = name();
        skip_space();
        if (closing != e.name || !starts(">")) {
          return failed("</" + closing + "> does not close <" + e.name + ">");
        }
        ++m_at;
        e.text = trim(text);
        return true;
      }
      if (!markup(e, text)) {
        return false;
      }
    }
    return failed("<" + e.name + "> is never closed");
  }

  // One piece of content: a comment, CDATA, a child element or character data.
  bool markup(xml_element& e, std::string& text) {
    if (starts("<!--")) {
      return skip_past("-->") || failed("an unterminated comment");
    }
    if (starts("<![CDATA[")) {
      const std::size_t start = m_at + 9;
      if (!skip_past("]]>")) {
        return failed("an unterminated CDATA section");
      }
      text += m_text.substr(start, m_at - 3 - start);
      return true;
    }
    if (starts("<?")) {
      return skip_past("?>") || failed("an unterminated processing instruction");
    }
    if (starts("<")) {
      e.children.emplace_back();
      return element(e.children.back());
    }
    return characters(text);
  }

  bool characters(std::string& text) {
    while (m_at < m_text.size() && m_text[m_at] != '<') {
      if (m_text[m_at] != '&') {
        text.push_back(m_text[m_at++]);
        continue;
      }
      const auto semi = m_text.find(';', m_at);
      if (semi == std::string_view::npos) {
        return failed("an unterminated entity");
      }
      if (!entity(m_text.substr(m_at + 1, semi - m_at - 1), text)) {
        return failed("an unknown entity");
      }
      m_at = semi + 1;
    }
    return true;
  }

  static bool entity(std::string_view name, std::string& text) {
    static constexpr std::pair<std::string_view, char> named[] = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    for (const auto& [n, c] : named) {
      if (name == n) {
        text.push_back(c);
        return true;
      }
    }
    if (name.size() < 2 || name[0] != '#') {
      return false;
    }
    const bool hex = name[1] == 'x';
    const std::string_view digits = name.substr(hex ? 2 : 1);
    std::uint32_t code = 0;
    const auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), code, hex ? 16 : 10);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
        code > 0x10ffff) {
      return false;
    }
    append_utf8(code, text);
    return true;
  }

  static void append_utf8(std::uint32_t c, std::string& out) {
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out.push_back(static_cast<char>(0xc0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
    } else if (c < 0x10000) {
      out.push_back(static_cast<char>(0xe0 | (c >> 12)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
    } else {
      out.push_back(static_cast<char>(0xf0 | (c >> 18)));
      out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
    }
  }

  static std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) {
      return "";
    }
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
  }

  std::string_view m_text;
  std::size_t m_at = 0;
  std::string m_error;
};

} // namespace

const xml_element* xml_element::child(std::string_view child_name) const {
  for (const auto& c : children) {
    if (c.name == child_name) {
      return &c;
    }
  }
  return nullptr;
}

std::string xml_element::text_at(std::string_view path) const {
  const xml_element* at = this;
  while (at != nullptr && !path.empty()) {
    const auto slash = path.find('/');
    at = at->child(path.substr(0, slash));
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  }
  return at != nullptr ? at->text : std::string();
}

result<xml_element> parse_xml(std::string_view text) {
  return xml_parser(text).document();
}

} // namespace cugrade::perf
