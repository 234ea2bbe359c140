#pragma once
/// \file
/// Shared machinery of the rewriting passes: the token stream with navigation helpers, the scope
/// of every token (inside a function body or at namespace scope), and the list of text edits.
/// Every edit keeps the number of newlines of the text it replaces, so line numbers never move.

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/cxx_lexer.h"

namespace cugrade::emu::detail {

/// Whether the token is one of `words` (an identifier or punctuator spelled so).
inline bool one_of(const token& t, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (t.is(w)) {
      return true;
    }
  }
  return false;
}

/// Replace [begin, end) of the source with `text`.
struct edit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
};

/// [begin, end) of `source` with `edits` (all inside it) made, insertions at one place in the
/// order given; nullopt, with the offset of the later one in *overlap, when two edits overlap.
std::optional<std::string> with_edits(std::string_view source, std::size_t begin, std::size_t end,
                                      std::vector<edit> edits, std::size_t* overlap);

class rewrite_context {
public:
  rewrite_context(std::string_view source, std::string_view file_name);

  [[nodiscard]] std::string_view source() const { return m_source; }
  [[nodiscard]] const std::vector<token>& tokens() const { return m_tokens; }
  [[nodiscard]] const token& at(std::size_t i) const { return m_tokens[i]; }
  [[nodiscard]] std::size_t size() const { return m_tokens.size(); }

  /// Index of the previous / next significant token, if any.
  [[nodiscard]] std::optional<std::size_t> prev(std::size_t i) const;
  [[nodiscard]] std::optional<std::size_t> next(std::size_t i) const;
  /// Whether token i lies inside a function body (or any block nested in one).
  [[nodiscard]] bool in_function(std::size_t i) const { return m_in_function[i]; }
  /// Whether token i is device code: inside the body of a __global__ or __device__ function.
  [[nodiscard]] bool in_device_code(std::size_t i) const { return m_device_body[i] != k_none; }
  /// For device code: the index of the `{` that opens the __global__ / __device__ function whose
  /// locals are visible at token i, or nullopt inside a lambda or a local class nested in it.
  [[nodiscard]] std::optional<std::size_t> device_body(std::size_t i) const {
    return m_device_body[i] == k_none || m_device_body[i] == k_nested
               ? std::nullopt
               : std::optional<std::size_t>(m_device_body[i]);
  }
  /// Source text of tokens [first, last] inclusive.
  [[nodiscard]] std::string_view span(std::size_t first, std::size_t last) const;
  /// Newlines in [begin, end) of the source, as a string of '\n'.
  [[nodiscard]] std::string newlines(std::size_t begin, std::size_t end) const;
  /// 1-based line of a byte offset of the source.
  [[nodiscard]] int line_at(std::size_t offset) const;
  /// Whether an edit already replaces text overlapping [begin, end).
  [[nodiscard]] bool edited(std::size_t begin, std::size_t end) const;
  /// "file:line: " for messages.
  [[nodiscard]] std::string where(std::size_t token_index) const;

  void add(edit e) { m_edits.push_back(std::move(e)); }
  /// A number unique within the file, for shared-memory slots.
  int next_id() { return m_next_id++; }

  /// The edited source; fails if two edits overlap. Insertions at one place keep their order.
  [[nodiscard]] std::optional<std::string> apply(std::string* error) const;

private:
  void compute_scopes();

  std::string_view m_source;
  std::string m_file_name;
  std::vector<token> m_tokens;
  std::vector<bool> m_in_function;
  static constexpr std::size_t k_none = static_cast<std::size_t>(-1);
  static constexpr std::size_t k_nested = static_cast<std::size_t>(-2);
  std::vector<std::size_t> m_device_body; ///< per token: k_none, k_nested or the body's `{`
  std::vector<edit> m_edits;
  std::vector<std::size_t> m_line_starts;
  int m_next_id = 0;
};

/// Whether the value at token `start` must be a constant (`constexpr int n = a[2];`, `case a[0]:`,
/// `static_assert(a[0] > 1)`, `alignas(a[0])`), is never computed (`sizeof(a[0])`), or is an
/// assert's condition, whose text is what a failed assert reports: no pass rewrites it.
bool in_constant_expression(const rewrite_context& ctx, std::size_t start);

/// Pass: kernel launches `k<<<g, b, s, st>>>(args)` -> `::cugrade::emu::launch(k, ...)(args)`.
/// Returns an error message for a launch it cannot translate.
std::optional<std::string> rewrite_launches(rewrite_context& ctx);
/// Pass: `__shared__` declarations -> per-block storage.
std::optional<std::string> rewrite_shared(rewrite_context& ctx);
/// Check: device code calling a function that exists only on the host (one of this file's
/// functions declared without __device__, or std::min/max/swap/clamp/numeric_limits), which nvcc
/// refuses. Returns the error for the first such call.
std::optional<std::string> check_execution_spaces(const rewrite_context& ctx);
/// Check: device code using a variable that exists only on the host (a namespace-scope variable
/// declared without __device__ or __constant__, not a const scalar), which nvcc refuses
/// ("identifier is undefined in device code"). Returns the error for the first such use.
std::optional<std::string> check_host_variables(const rewrite_context& ctx);
/// Pass: subscripts in device code (`a[i]`, `Mds[ty][k]`) -> the same lvalue, passed through a
/// check of the emulator's shared-memory hazard and bounds detector. Never fails.
void rewrite_accesses(rewrite_context& ctx);
/// Pass: calls of the C math functions in __global__ and __device__ functions ->
/// `::cugrade::emu::device_cmath::` (float and double only, as nvcc gives device code). Never
/// fails: an integer argument is then a build error at its line.
void rewrite_device_math(rewrite_context& ctx);

} // namespace cugrade::emu::detail
