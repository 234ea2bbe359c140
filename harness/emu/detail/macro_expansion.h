#pragma once
/// \file
/// The student's own macros that reach memory through a subscript, expanded where they are used,
/// before the rewriting passes run. Students write `#define A(i,j) A[(i) + (j)*lda]`,
/// `#define sa(i,j) sa[((j)<<5) + (i)]` over a `__shared__` array, or
/// `#define FETCH_FLOAT4(p) (reinterpret_cast<float4*>(&(p))[0])`; the subscripts sit in the
/// `#define`, where the access passes never look, so a race, a shared array overrun or a misaligned
/// float4 through such a macro went unchecked in emulation while compute-sanitizer reports it.
///
/// A `__shared__` spelled through a macro (`#define SHARED __shared__`) is expanded for the same
/// reason: the rewriter translates only the declarations it sees.
///
/// Only macros that are safe to expand by hand are expanded: defined once, outside any
/// conditional block, never `#undef`d, without `#`, `##` or `__VA_ARGS__`, whose replacement holds
/// a `[` or `__shared__` (directly or through another such macro). Everything else is left to
/// g++'s preprocessor.
/// An expansion keeps the newlines of the invocation it replaces, so every line stays where it was.

#include <string>
#include <string_view>

namespace cugrade::emu::detail {

/// `source` with every use of those macros (after their `#define`, outside directives) replaced by
/// its expansion. Returns the source unchanged when the expansions would grow past a bound (a
/// macro written to explode).
std::string expand_access_macros(std::string_view source);

} // namespace cugrade::emu::detail
