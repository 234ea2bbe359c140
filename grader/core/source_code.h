#pragma once
/// \file
/// Reading a submission's source as text, for the facts diagnosis takes from it (early_exits.h,
/// warp_steps.h): the code with comments, literals and directives blanked, the definition of a
/// function, and the kernels a launcher launches. A reader of text, not a compiler.

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::grader::source_code {

/// The source with every comment, string or character literal and preprocessor line blanked to
/// spaces (line ends stay, so offsets keep their lines): what is left is code.
[[nodiscard]] std::string code_only(std::string_view source);

/// The offset of the bracket that closes the one at `open` (`(`, `{`, `[` or `<`), or npos.
[[nodiscard]] std::size_t matching(const std::string& text, std::size_t open);

/// The first offset from `i` that is not white space.
[[nodiscard]] std::size_t skip_space(const std::string& text, std::size_t i);

/// The identifier that ends just before `end` (spaces skipped), or "".
[[nodiscard]] std::string identifier_before(const std::string& text, std::size_t end);

/// A function's definition in code_only text.
struct function_body {
  std::string name;
  std::size_t open = 0;  ///< its '{'
  std::size_t close = 0; ///< its '}'
};

/// The definition of the function whose name ends at `name_end` ("name(...) {"), if one follows.
[[nodiscard]] std::optional<function_body> definition_at(const std::string& code,
                                                         std::size_t name_end);

/// The kernels launched (`name<<<`) in the body of `launcher`'s definition; nullopt when there
/// is no such definition or it launches nothing by name.
[[nodiscard]] std::optional<std::set<std::string>> launched_by(const std::string& code,
                                                               std::string_view launcher);

/// A source read once for what diagnosis reads of one launcher's code: its code_only text, and
/// the kernels the launcher launches (launched_by; nullopt: every function counts).
struct launcher_code {
  std::string code;
  std::optional<std::set<std::string>> kernels;
};

[[nodiscard]] launcher_code launcher_code_of(std::string_view source, std::string_view launcher);

/// The 1-based line of any offset of a text, by binary search over where its lines start: a
/// reader that names many lines costs no scan from the start per line.
class line_index {
public:
  explicit line_index(std::string_view text);
  [[nodiscard]] int line_of(std::size_t offset) const;

private:
  std::vector<std::size_t> m_starts{0};
};

} // namespace cugrade::grader::source_code
