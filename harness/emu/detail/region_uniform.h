#pragma once
/// \file
/// Whether what a loop over barriers reads is the same in every thread of a block (so the region
/// form may run the loop once for the block), and whether a kernel changes a name: assigns it,
/// increments it or takes its address.

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/emu/detail/region_scan.h"

namespace cugrade::emu::detail {

class uniform_check {
public:
  /// `params`: the kernel's parameter names (read as they change; kept by reference).
  uniform_check(const rewrite_context& ctx, const file_facts& facts, const body_tokens& body,
                const std::set<std::string, std::less<>>& params);

  /// A local a run declares, with its initializer's positions [first, last] (k_npos: none).
  void note_local(const std::string& name, std::size_t first, std::size_t last);
  /// `for (T v = init; cond; step)` at [first, close): every name uniform, and v left alone by
  /// the body (up to body_last).
  bool uniform_header(std::size_t first, std::size_t close, std::size_t body_last);
  /// Whether the name is assigned, incremented or has its address taken in [first, last].
  bool changed(const std::string& name, std::size_t first, std::size_t last) const;
  /// `&x` at position q (not `&p[i]` or `&p->m`, the address of what a pointer points to).
  bool address_taken(std::size_t q) const;

private:
  bool uniform_token(std::size_t q, const std::string& variable);
  bool pure_function(std::string_view name);
  bool uniform_name(std::string_view name);
  bool uniform_macro(const std::vector<std::size_t>& tokens);
  bool uniform_word(std::string_view word);
  bool assigned_at(std::size_t q) const;
  bool incremented(std::size_t q) const;

  const rewrite_context& m_ctx;
  const file_facts& m_facts;
  const body_tokens& m_body;
  const std::set<std::string, std::less<>>& m_params;
  /// Per local declared in a run: its initializer's positions [first, last] (k_npos: none).
  std::map<std::string, std::pair<std::size_t, std::size_t>, std::less<>> m_initializers;
  int m_depth = 0; ///< of uniform_word's recursion
};

} // namespace cugrade::emu::detail
