#pragma once
/// \file
/// A small XML reader for compute-sanitizer's reports: elements, their text and children.
/// Attributes are skipped, entities decoded, comments, processing instructions and CDATA
/// handled. Enough for machine-written files; not a general XML library.

#include "harness/core/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace cugrade::perf {

struct xml_element {
  std::string name;
  std::string text; ///< character data directly inside, entities decoded, trimmed
  std::vector<xml_element> children;

  /// The first child called `name`, or nullptr.
  [[nodiscard]] const xml_element* child(std::string_view child_name) const;
  /// The text of the element at a path of child names ("where/line"), or "".
  [[nodiscard]] std::string text_at(std::string_view path) const;
};

/// Parses a document and returns its root element; the message gives the byte offset of the
/// first problem.
[[nodiscard]] result<xml_element> parse_xml(std::string_view text);

} // namespace cugrade::perf
