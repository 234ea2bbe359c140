#pragma once
/// \file
/// What the execution-space checks need to know about a file's namespace scope: which tokens lie
/// at it (not in a function, class or initializer) and which names the file #defines.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu::detail {

/// `;`, `{` or `}`: where a statement or declaration ends or a body starts.
bool boundary(const token& t);
/// An identifier (keywords included: the lexer does not tell them apart).
bool is_name(const token& t);
/// Whether the token before `i` makes it a member (`s.n`, `p->n`) or a qualified name (`ns::n`).
bool member_or_qualified(const rewrite_context& ctx, std::size_t i);
/// The significant tokens before `i` back to the previous `;`, `{`, `}` or directive, nearest
/// first: the head of the declaration whose name or body is at `i`.
std::vector<std::size_t> declaration_before(const rewrite_context& ctx, std::size_t i);
/// Per token: whether it lies at namespace scope (inside namespaces and `extern "C"` blocks, not
/// in a function, class or initializer).
std::vector<bool> namespace_scope(const rewrite_context& ctx);
/// Names the file #defines: `#define HD __host__ __device__` makes `HD float f()` a device
/// function as much as the keywords do.
std::set<std::string, std::less<>> macros_of(const rewrite_context& ctx);

/// Whether the function whose body opens at `body` is only device code: its declaration (back to
/// the previous `;`, `{` or `}`) says __global__ or __device__, with no __host__ and no macro of
/// the file (`macros`, from macros_of). nvcc refuses some calls there that it only warns about in
/// __host__ __device__ functions.
bool device_only(const rewrite_context& ctx, std::size_t body,
                 const std::set<std::string, std::less<>>& macros);

/// A function the file declares or defines at namespace scope.
struct declared_function {
  bool device = false; ///< some declaration of the name has __device__ or __global__
  int line = 0;        ///< of its first declaration
};
/// The file's namespace-scope functions by name: a name followed by `(` whose statement has no
/// `=` before it and whose `)` is followed by `{`, `;`, `const`, `noexcept` or `->`. A
/// declaration spelled with one of the file's macros counts as a device one.
std::map<std::string, declared_function> functions_of(const rewrite_context& ctx);

} // namespace cugrade::emu::detail
