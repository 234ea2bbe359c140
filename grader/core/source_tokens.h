#pragma once
/// \file
/// A submission's code as tokens, for the readers of source facts that look at statements
/// (warp_steps.h, signed_bytes.h): the bracket that closes another, and a launcher's code read
/// once (launcher_tokens): the function definitions its kernels reach
/// through calls (a function's name followed by `(` in the body of one reached; every function
/// when the kernels are unknown). A reader of text, not a compiler (source_code.h reads the same
/// code as characters).

#include "grader/core/source_code.h"
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

/// The token that closes the bracket at `open` (`(`, `[` or `{`) within `reach` tokens, or npos.
[[nodiscard]] std::size_t closing(const tokens& t, std::size_t open, std::size_t reach = npos);

/// A function definition, by token: `name ( params ) { body }`.
struct function_tokens {
  std::string name;
  std::size_t params = 0; ///< its `(`
  std::size_t open = 0;   ///< its `{`
  std::size_t close = 0;  ///< its `}`
};

/// A launcher's code read as tokens once for every reader of statements (source_facts.h): the
/// code_only text it points into, its significant tokens, the functions the launcher's kernels
/// reach, and where its lines start. It lives no longer than the launcher_code it was made from.
struct launcher_tokens {
  const std::string& code;
  tokens t;
  std::vector<function_tokens> functions;
  source_code::line_index lines;
};

[[nodiscard]] launcher_tokens tokens_of(const source_code::launcher_code& launcher);

} // namespace cugrade::grader::source_tokens
