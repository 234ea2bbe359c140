#pragma once
/// \file
/// A submission's code as tokens, for the readers of source facts that look at statements
/// (warp_steps.h, signed_bytes.h): the significant tokens, the bracket that closes another, the
/// function definitions, and the functions a launcher's kernels reach through calls. A reader of
/// text, not a compiler (source_code.h reads the same code as characters).

#include "harness/core/cxx_lexer.h"

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cugrade::grader::source_tokens {

using tokens = std::vector<token>;

inline constexpr std::size_t npos = std::string::npos;
/// How far a parameter list or subscript may reach, in tokens: longer is no idiom, and a
/// hostile file of nested brackets would otherwise cost a scan to its end per bracket.
inline constexpr std::size_t k_reach = 512;

/// The tokens of code_only text that are neither space nor comment.
[[nodiscard]] tokens significant(const std::string& code);

/// The token that closes the bracket at `open` (`(`, `[` or `{`) within `reach` tokens, or npos.
[[nodiscard]] std::size_t closing(const tokens& t, std::size_t open, std::size_t reach = npos);

/// A function definition, by token: `name ( params ) { body }`.
struct function_tokens {
  std::string name;
  std::size_t params = 0; ///< its `(`
  std::size_t open = 0;   ///< its `{`
  std::size_t close = 0;  ///< its `}`
};

/// Every function definition, in source order.
[[nodiscard]] std::vector<function_tokens> functions_in(const tokens& t);

/// The names of the functions reachable from `roots` through calls (a function's name followed
/// by `(` in the body of one reached), `roots` included.
[[nodiscard]] std::set<std::string> reachable(const tokens& t,
                                              const std::vector<function_tokens>& functions,
                                              std::set<std::string> roots);

/// The functions a launcher's code runs: those reachable from its kernels, or every one when
/// the kernels are unknown (source_code::launcher_code::kernels is nullopt).
[[nodiscard]] std::vector<function_tokens>
functions_run(const tokens& t, const std::optional<std::set<std::string>>& kernels);

} // namespace cugrade::grader::source_tokens
