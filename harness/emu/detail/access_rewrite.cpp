// Access translation, for the shared-memory hazard and bounds detector. In device code (the body
// of a __global__ or __device__ function) every subscript expression that names a variable,
//   Mds[ty][k]  ->  (__cugrade_chk ? ::cugrade::emu::detail::shared_read(Mds[ty][k], true, 41)
//                                  : ::cugrade::emu::detail::shared_read(Mds[ty][k], false, 41))
//   T[t] = x    ->  ::cugrade::emu::detail::shared_write(T[t], __cugrade_chk, 52) = x
//   T[t] += x   ->  ::cugrade::emu::detail::shared_update(T[t], __cugrade_chk, 52) += x
//   (and `T[t] = T[t] + x`, whose right side reads the element it assigns, the same way)
// is the same lvalue, passed in a block the emulator checks through a check that reports an
// address in the block's shared memory (a global buffer costs a compare). The body of each such
// function gets `const bool __cugrade_chk = ...;` after its `{`: a constant for the compiler, so
// a loop keeps one test per access at most and unchecked code is the plain access (the `false`
// form inlines to nothing but the access, whose instructions, and a fault's line, the compiler
// attributes as before), except for a volatile element: warp-synchronous code, whose lanes
// step together in every block (shared_access.h). A subscript holding
// another, or spanning lines, is wrapped instead: `shared_read(a[...], __cugrade_chk, 41)`.
// Lambdas and local classes, which cannot see that local, ask the thread context.
//
// Only what is certain is translated: a subscript followed by `.`, `->` or `(`, one whose
// address is taken (`&T[i]`, an atomic's argument: the atomic reports itself), a declarator
// (`float v[4]`) and anything in a constant expression are left alone. A missed access costs a
// missed hazard, never a wrong program.
#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <vector>

#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu::detail {
namespace {

// C++ keywords that can stand before `[` without naming a variable, or that make the tokens
// around a subscript something other than a plain expression.
bool keyword(const token& t) {
  return one_of(
      t,
      {"alignas",       "alignof",     "auto",       "bool",     "break",       "case",
       "catch",         "char",        "class",      "const",    "constexpr",   "consteval",
       "constinit",     "const_cast",  "continue",   "co_await", "co_return",   "co_yield",
       "decltype",      "default",     "delete",     "do",       "double",      "dynamic_cast",
       "else",          "enum",        "explicit",   "extern",   "false",       "float",
       "for",           "friend",      "goto",       "if",       "inline",      "int",
       "long",          "mutable",     "namespace",  "new",      "noexcept",    "nullptr",
       "operator",      "private",     "protected",  "public",   "register",    "reinterpret_cast",
       "requires",      "return",      "short",      "signed",   "sizeof",      "static",
       "static_assert", "static_cast", "struct",     "switch",   "template",    "this",
       "thread_local",  "throw",       "true",       "try",      "typedef",     "typeid",
       "typename",      "union",       "unsigned",   "using",    "virtual",     "void",
       "volatile",      "wchar_t",     "while",      "char8_t",  "char16_t",    "char32_t",
       "__shared__",    "__device__",  "__global__", "__host__", "__constant__"});
}

// Words that begin a declaration when a statement starts with them.
bool declaration_word(const token& t) {
  return one_of(t, {"void",      "bool",     "char",   "wchar_t", "char8_t",      "char16_t",
                    "char32_t",  "short",    "int",    "long",    "float",        "double",
                    "signed",    "unsigned", "auto",   "const",   "volatile",     "static",
                    "constexpr", "register", "extern", "typedef", "thread_local", "struct",
                    "class",     "union",    "enum"});
}

// Words after which a subscript is an expression, never a declarator.
bool expression_word(const token& t) {
  return one_of(t, {"return", "else", "do", "throw", "co_return", "co_yield", "goto", "sizeof",
                    "alignof", "typeid", "decltype", "noexcept", "new", "delete", "if", "while",
                    "for", "switch"});
}

bool non_keyword_name(const token& t) {
  return t.kind == token_kind::identifier && !keyword(t);
}

bool adjacent(const rewrite_context& ctx, std::size_t a, std::size_t b) {
  return ctx.at(a).end == ctx.at(b).begin;
}

// Whether the token at `first` and the next make `++` or `--`.
bool increment_at(const rewrite_context& ctx, std::size_t first) {
  const std::optional<std::size_t> second = ctx.next(first);
  return (ctx.at(first).is("+") || ctx.at(first).is("-")) && second &&
         ctx.at(*second).is(ctx.at(first).text) && adjacent(ctx, first, *second);
}

// A `*` in device code, outside a directive: what the dereference finders start from.
bool device_star(const rewrite_context& ctx, std::size_t i) {
  return ctx.at(i).is("*") && !ctx.at(i).in_directive && ctx.in_device_code(i);
}

// The first token of the statement holding token `i`: after the last `;`, `{`, `}` or a label's
// `:` before it.
std::size_t statement_start(const rewrite_context& ctx, std::size_t i) {
  std::size_t first = i;
  for (std::optional<std::size_t> p = ctx.prev(i); p; p = ctx.prev(*p)) {
    const token& t = ctx.at(*p);
    if (t.is(";") || t.is("{") || t.is("}") || t.is(":") || t.in_directive) {
      break;
    }
    first = *p;
  }
  return first;
}

// Whether the statement starting at `first` declares something: `int a`, `float* const p`,
// `Tile t`, `ns::vec<float> v`.
bool declares(const rewrite_context& ctx, std::size_t first) {
  std::optional<std::size_t> k = first;
  if (declaration_word(ctx.at(*k))) {
    return true;
  }
  if (!non_keyword_name(ctx.at(*k))) {
    return false;
  }
  for (k = ctx.next(*k); k; k = ctx.next(*k)) {
    const token& t = ctx.at(*k);
    if (t.is("::")) {
      k = ctx.next(*k);
      if (!k || !non_keyword_name(ctx.at(*k))) {
        return false;
      }
    } else if (t.is("<")) { // template arguments: skip to the matching '>'
      int depth = 1;
      while (depth > 0 && (k = ctx.next(*k))) {
        depth += ctx.at(*k).is("<") ? 1 : (ctx.at(*k).is(">") ? -1 : 0);
        depth -= ctx.at(*k).is(">>") ? 2 : 0;
        if (ctx.at(*k).is(";") || ctx.at(*k).is("{")) {
          return false;
        }
      }
      if (!k) {
        return false;
      }
    } else if (t.is("*") || t.is("&") || t.is("const") || t.is("volatile")) {
      continue;
    } else {
      return non_keyword_name(t);
    }
  }
  return false;
}

// Whether the name at `start` is declared here: `float v[4]`, `Tile* t[2]`, or a later declarator
// of a declaration statement (`float s = 0, v[4];`).
bool declared_here(const rewrite_context& ctx, std::size_t start) {
  const std::size_t first = statement_start(ctx, start);
  if (first == start) {
    return false;
  }
  bool typed = false;
  bool plain = true; // only the tokens a declaration's head is made of
  int depth = 0;
  for (std::size_t k = first; k < start; ++k) {
    const token& t = ctx.at(k);
    if (!t.significant()) {
      continue;
    }
    depth += t.nesting();
    if (t.kind == token_kind::identifier) {
      if (expression_word(t)) {
        return false;
      }
      typed = true;
    } else if (!(t.kind == token_kind::number || t.is("::") || t.is("<") || t.is(">") ||
                 t.is(">>") || t.is(",") || t.is("*") || t.is("&"))) {
      plain = false;
    }
  }
  if (plain && typed) {
    return true;
  }
  const std::optional<std::size_t> before = ctx.prev(start);
  return depth == 0 && before && ctx.at(*before).is(",") && declares(ctx, first);
}

// Parentheses that only group (not a call's, nor an `if`'s: those have a name before them).
bool grouping_parentheses(const rewrite_context& ctx, std::size_t open) {
  const std::optional<std::size_t> before = ctx.prev(open);
  return !before || !(non_keyword_name(ctx.at(*before)) || ctx.at(*before).is(")") ||
                      ctx.at(*before).is("]") || ctx.at(*before).is(">"));
}

// How far the cast helpers below look: a cast's type or operand longer than this is no idiom
// (and a hostile file of nested casts would otherwise cost a scan to its end per cast).
constexpr int k_cast_reach = 256;

// The token that closes the group `open` opens (`<` ... `>` or `(` ... `)`), if any.
std::optional<std::size_t> group_close(const rewrite_context& ctx, std::size_t open) {
  const bool angle = ctx.at(open).is("<");
  int depth = 0;
  int reach = k_cast_reach;
  for (std::optional<std::size_t> k = open; k && reach-- > 0; k = ctx.next(*k)) {
    const token& t = ctx.at(*k);
    if (t.in_directive || t.is(";") || t.is("{")) {
      return std::nullopt;
    }
    if (angle) {
      depth += t.is("<") ? 1 : (t.is(">") ? -1 : (t.is(">>") ? -2 : 0));
    } else {
      depth += t.is("(") ? 1 : (t.is(")") ? -1 : 0);
    }
    if (depth <= 0) {
      return k;
    }
  }
  return std::nullopt;
}

// For `(float4 *)` at `open`, a C cast to a pointer type: its `)`. Only names, `::` and `*` inside.
std::optional<std::size_t> pointer_cast_close(const rewrite_context& ctx, std::size_t open) {
  const std::optional<std::size_t> close = group_close(ctx, open);
  if (!ctx.at(open).is("(") || !close || !ctx.at(*ctx.prev(*close)).is("*")) {
    return std::nullopt;
  }
  for (std::size_t k = *ctx.next(open); k != *close; k = *ctx.next(k)) {
    if (!(ctx.at(k).kind == token_kind::identifier || ctx.at(k).is("*") || ctx.at(k).is("::"))) {
      return std::nullopt;
    }
  }
  return close;
}

// The `(` that the `)` at `close` closes, within the statement.
std::optional<std::size_t> opener_of(const rewrite_context& ctx, std::size_t close) {
  int depth = 0;
  int reach = k_cast_reach;
  for (std::optional<std::size_t> k = close; k && reach-- > 0; k = ctx.prev(*k)) {
    const token& t = ctx.at(*k);
    if (t.in_directive || t.is(";") || t.is("{") || t.is("}")) {
      return std::nullopt;
    }
    depth += t.is(")") ? 1 : (t.is("(") ? -1 : 0);
    if (depth == 0) {
      return k;
    }
  }
  return std::nullopt;
}

// Whether the `)` at `close` ends a C cast to a pointer type, `(float4 *)`.
bool c_pointer_cast_ends_at(const rewrite_context& ctx, std::size_t close) {
  const std::optional<std::size_t> open = opener_of(ctx, close);
  return open && pointer_cast_close(ctx, *open) == close;
}

// `&a[i]` and `&(a[i])`: the address escapes (an atomic's argument, a pointer, the operand of a
// cast `(float4*)&a[i]`); `a & b[i]` and `a && b[i]` are reads.
bool address_taken(const rewrite_context& ctx, std::size_t start, std::size_t last) {
  for (;;) { // out through `(` ... `)` around the subscript: PMPP writes `atomicAdd(&(h[b]), 1)`
    const std::optional<std::size_t> open = ctx.prev(start);
    const std::optional<std::size_t> close = ctx.next(last);
    if (!open || !close || !ctx.at(*open).is("(") || !ctx.at(*close).is(")") ||
        !grouping_parentheses(ctx, *open)) {
      break;
    }
    start = *open;
    last = *close;
  }
  const std::optional<std::size_t> amp = ctx.prev(start);
  if (!amp || !ctx.at(*amp).is("&")) {
    return false;
  }
  const std::optional<std::size_t> before = ctx.prev(*amp);
  if (!before) {
    return true;
  }
  const token& b = ctx.at(*before);
  if (b.is("&") && adjacent(ctx, *before, *amp)) {
    return false;
  }
  if (b.is(")")) {
    return c_pointer_cast_ends_at(ctx, *before);
  }
  return !(non_keyword_name(b) || b.kind == token_kind::number || b.kind == token_kind::literal ||
           b.is("]"));
}

// The closing `]` of the subscript opened at `open`, if any.
std::optional<std::size_t> matching_bracket(const rewrite_context& ctx, std::size_t open) {
  int depth = 0;
  for (std::optional<std::size_t> k = open; k; k = ctx.next(*k)) {
    const token& t = ctx.at(*k);
    if (t.in_directive) {
      return std::nullopt;
    }
    depth += t.is("[") ? 1 : (t.is("]") ? -1 : 0);
    if (depth == 0) {
      return k;
    }
  }
  return std::nullopt;
}

// Whether the `)` at `close` ends an `if`, `while`, `for` or `switch` condition: what follows
// starts a statement (`if (c) (*n)--;`).
bool closes_condition(const rewrite_context& ctx, std::size_t close) {
  const std::optional<std::size_t> open = opener_of(ctx, close);
  const std::optional<std::size_t> word = open ? ctx.prev(*open) : std::nullopt;
  return word && one_of(ctx.at(*word), {"if", "while", "for", "switch"});
}

enum class use { read, write, update };

// Widens [start, last] over the parentheses that only group it: `(a[i])`, and
// `(reinterpret_cast<float4*>(&(p))[0])` from FETCH_FLOAT4, are stored to as `a[i]` is. A `(`
// after a name, `)`, `]` or `>` opens a call's or a cast's arguments, not a group.
void widen_over_grouping(const rewrite_context& ctx, std::size_t& start, std::size_t& last) {
  for (int depth = 0; depth < 16; ++depth) {
    const std::optional<std::size_t> open = ctx.prev(start);
    const std::optional<std::size_t> close = ctx.next(last);
    if (!open || !close || !ctx.at(*open).is("(") || !ctx.at(*close).is(")") ||
        group_close(ctx, *open) != close) {
      return;
    }
    if (const auto before = ctx.prev(*open);
        before && (non_keyword_name(ctx.at(*before)) || one_of(ctx.at(*before), {"]", ">"}) ||
                   (ctx.at(*before).is(")") && !closes_condition(ctx, *before)))) {
      return;
    }
    start = *open;
    last = *close;
  }
}

// `bins[x] = bins[x] + 1`: whether the right side of the assignment whose `=` is token `equals`
// reads the element [start, last] of its left side, which makes it a read-modify-write as `+=`
// is (a GPU's warp loses updates in both). Token by token, up to the statement's `;`.
bool right_side_reads(const rewrite_context& ctx, std::size_t start, std::size_t last,
                      std::size_t equals) {
  std::vector<std::string_view> element;
  for (std::optional<std::size_t> k = start; k && *k <= last; k = ctx.next(*k)) {
    element.push_back(ctx.at(*k).text);
  }
  std::vector<std::string_view> right;
  int depth = 0;
  for (std::optional<std::size_t> k = ctx.next(equals); k && right.size() < 256; k = ctx.next(*k)) {
    const token& t = ctx.at(*k);
    if (t.is("(") || t.is("[") || t.is("{")) {
      ++depth;
    } else if (t.is(")") || t.is("]") || t.is("}")) {
      if (--depth < 0) {
        break;
      }
    } else if (depth == 0 && (t.is(";") || t.is(","))) {
      break;
    }
    right.push_back(t.text);
  }
  return std::search(right.begin(), right.end(), element.begin(), element.end()) != right.end();
}

// What the operator after the subscript (or an increment before it) does to the element.
use use_of(const rewrite_context& ctx, std::size_t start, std::size_t last) {
  const std::size_t element_start = start;
  const std::size_t element_last = last;
  widen_over_grouping(ctx, start, last);
  if (const auto b = ctx.prev(start); b && ctx.prev(*b) && increment_at(ctx, *ctx.prev(*b))) {
    return use::update; // ++a[i], --a[i]
  }
  const std::optional<std::size_t> op = ctx.next(last);
  if (!op) {
    return use::read;
  }
  const token& t = ctx.at(*op);
  const std::optional<std::size_t> op2 = ctx.next(*op);
  const bool then_equals = op2 && ctx.at(*op2).is("=") && adjacent(ctx, *op, *op2);
  if (t.is("=")) {
    if (then_equals) {
      return use::read; // `==` compares
    }
    return right_side_reads(ctx, element_start, element_last, *op) ? use::update : use::write;
  }
  if (one_of(t, {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"}) && then_equals) {
    return use::update;
  }
  if (increment_at(ctx, *op)) {
    return use::update; // a[i]++, a[i]--
  }
  return use::read;
}

const char* function_of(use u) {
  switch (u) {
  case use::write:
    return "::cugrade::emu::detail::shared_write(";
  case use::update:
    return "::cugrade::emu::detail::shared_update(";
  case use::read:
    break;
  }
  return "::cugrade::emu::detail::shared_read(";
}

// One subscript expression to translate: tokens [start, last], and how it is used.
struct access {
  std::size_t start = 0;
  std::size_t last = 0;
  use how = use::read;
};

// For a C++ cast at `i` (`reinterpret_cast<const float4*>(...)`): its closing `)`.
std::optional<std::size_t> cast_close(const rewrite_context& ctx, std::size_t i) {
  if (!one_of(ctx.at(i), {"reinterpret_cast", "static_cast", "const_cast"})) {
    return std::nullopt;
  }
  const std::optional<std::size_t> angle = ctx.next(i);
  const std::optional<std::size_t> angle_close =
      angle && ctx.at(*angle).is("<") ? group_close(ctx, *angle) : std::nullopt;
  const std::optional<std::size_t> paren = angle_close ? ctx.next(*angle_close) : std::nullopt;
  return paren && ctx.at(*paren).is("(") ? group_close(ctx, *paren) : std::nullopt;
}

// `reinterpret_cast<const float4*>(&(x[i]))[0]`, the load of FETCH_FLOAT4 in the SGEMM tutorials:
// the `[` after a cast's parentheses, when the cast at `i` is subscripted.
std::optional<std::size_t> subscripted_cast(const rewrite_context& ctx, std::size_t i) {
  const std::optional<std::size_t> close = cast_close(ctx, i);
  const std::optional<std::size_t> after = close ? ctx.next(*close) : std::nullopt;
  return after && ctx.at(*after).is("[") ? after : std::nullopt;
}

// The last token of a cast's operand starting at `first`: `(...)`, a name, `&name` or `&(...)`,
// each with its subscripts (`&x[i][j]`).
std::optional<std::size_t> operand_last(const rewrite_context& ctx, std::size_t first) {
  std::optional<std::size_t> k = first;
  if (ctx.at(*k).is("&")) {
    k = ctx.next(*k);
  }
  if (!k) {
    return std::nullopt;
  }
  std::optional<std::size_t> last =
      ctx.at(*k).is("(") ? group_close(ctx, *k)
                         : (non_keyword_name(ctx.at(*k)) ? k : std::optional<std::size_t>());
  for (auto open = last ? ctx.next(*last) : std::nullopt; open && ctx.at(*open).is("[");
       open = last ? ctx.next(*last) : std::nullopt) {
    last = matching_bracket(ctx, *open);
  }
  return last;
}

// The access whose name is token `i`, if `i` names a variable subscripted in device code (or is a
// cast whose result is subscripted).
std::optional<access> access_at(const rewrite_context& ctx, std::size_t i) {
  const token& name = ctx.at(i);
  const std::optional<std::size_t> cast = subscripted_cast(ctx, i);
  if (!name.significant() || name.in_directive || !(non_keyword_name(name) || cast) ||
      !ctx.in_device_code(i)) {
    return std::nullopt;
  }
  const std::optional<std::size_t> open = cast ? cast : ctx.next(i);
  if (!open || !ctx.at(*open).is("[")) {
    return std::nullopt;
  }
  const std::optional<std::size_t> inside = ctx.next(*open);
  if (!inside || ctx.at(*inside).is("[") || ctx.at(*inside).is("]")) {
    return std::nullopt; // an attribute `[[...]]` or an unsized declarator `a[]`
  }
  access a;
  a.start = i;
  while (const auto colons = ctx.prev(a.start)) { // ns::table[i]
    if (!ctx.at(*colons).is("::")) {
      break;
    }
    const auto scope = ctx.prev(*colons);
    a.start = scope && non_keyword_name(ctx.at(*scope)) ? *scope : *colons;
    if (a.start == *colons) {
      break;
    }
  }
  if (const auto before = ctx.prev(a.start);
      before && (ctx.at(*before).is(".") || ctx.at(*before).is("->") || ctx.at(*before).is("::") ||
                 ctx.at(*before).is("new"))) {
    return std::nullopt; // a member's subscript, or `new T[n]`
  }
  std::optional<std::size_t> k = open;
  while (k && ctx.at(*k).is("[")) {
    const std::optional<std::size_t> close = matching_bracket(ctx, *k);
    if (!close) {
      return std::nullopt;
    }
    a.last = *close;
    k = ctx.next(*close);
  }
  if (k && (ctx.at(*k).is(".") || ctx.at(*k).is("->") || ctx.at(*k).is("("))) {
    return std::nullopt;
  }
  if (address_taken(ctx, a.start, a.last) || declared_here(ctx, a.start) ||
      in_constant_expression(ctx, a.start)) {
    return std::nullopt;
  }
  a.how = use_of(ctx, a.start, a.last);
  return a;
}

// `*(float4 *)(&x[i])`, `*(const float4 *)&x[i]`, `*reinterpret_cast<float4 *>(p)`: a load or
// store through a cast pointer, one access of the pointed-to type (its alignment checked as a
// GPU's load would be), when the `*` at `i` is such a dereference in device code.
std::optional<access> deref_at(const rewrite_context& ctx, std::size_t i) {
  if (!device_star(ctx, i)) {
    return std::nullopt;
  }
  if (const auto b = ctx.prev(i);
      b && (non_keyword_name(ctx.at(*b)) || ctx.at(*b).kind == token_kind::number ||
            ctx.at(*b).kind == token_kind::literal || one_of(ctx.at(*b), {")", "]", "*", "&"}))) {
    return std::nullopt; // a product, a declarator, `**p`, `&*p`
  }
  const std::optional<std::size_t> cast = ctx.next(i);
  std::optional<std::size_t> last = cast ? cast_close(ctx, *cast) : std::nullopt;
  if (cast && !last) {
    const std::optional<std::size_t> close = pointer_cast_close(ctx, *cast);
    const std::optional<std::size_t> operand = close ? ctx.next(*close) : std::nullopt;
    last = operand ? operand_last(ctx, *operand) : std::nullopt;
  }
  const std::optional<std::size_t> after = last ? ctx.next(*last) : std::nullopt;
  if (!last || (after && one_of(ctx.at(*after), {"[", "(", ".", "->"}))) {
    return std::nullopt; // no cast, or the `*` applies to more than the cast
  }
  return access{i, *last, use_of(ctx, i, *last)};
}

// `*result += s[0]` (thread 0 of each block adding its sum), `*count -= 1`: a compound assignment
// to a dereferenced name at the start of a statement, a read-modify-write as `result[0] += s[0]`
// is. Only there: after `;`, `{`, `}`, `)` or `else`, a `*` cannot be a product whose result is
// assigned to.
std::optional<access> deref_update_at(const rewrite_context& ctx, std::size_t i) {
  if (!device_star(ctx, i)) {
    return std::nullopt;
  }
  const std::optional<std::size_t> before = ctx.prev(i);
  const std::optional<std::size_t> name = ctx.next(i);
  if (!before || !one_of(ctx.at(*before), {";", "{", "}", ")", "else"}) || !name ||
      !non_keyword_name(ctx.at(*name))) {
    return std::nullopt;
  }
  const std::optional<std::size_t> op = ctx.next(*name);
  const std::optional<std::size_t> op2 = op ? ctx.next(*op) : std::nullopt;
  if (!op2 || !one_of(ctx.at(*op), {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"}) ||
      !ctx.at(*op2).is("=") || !adjacent(ctx, *op, *op2)) {
    return std::nullopt;
  }
  return access{i, *name, use::update};
}

// The `(`, `[` or `{` whose group holds token `i` (nothing past the statement's start).
std::optional<std::size_t> enclosing_open(const rewrite_context& ctx, std::size_t i) {
  int depth = 0;
  int reach = k_cast_reach;
  for (std::optional<std::size_t> k = ctx.prev(i); k && reach-- > 0; k = ctx.prev(*k)) {
    const token& t = ctx.at(*k);
    if (t.in_directive || t.is(";")) {
      return std::nullopt;
    }
    if (t.is(")") || t.is("]") || t.is("}")) {
      ++depth;
    } else if (t.is("(") || t.is("[") || t.is("{")) {
      if (depth-- == 0) {
        return k;
      }
    }
  }
  return std::nullopt;
}

// Whether a `*` right after token `b` can only be a dereference: after an assignment or a
// comparison's `=`, `return`, a statement's start, a condition's `)`, a `(` that is no
// declarator's, an operator that takes an operand on its right (`i < *count`). Never after a
// name, a `)` that may close a product's operand, `>` (`vector<int> *p`), `,` (`int a, *b`) or
// `++` (`i++ * n`).
bool dereference_follows(const rewrite_context& ctx, std::size_t b) {
  const token& t = ctx.at(b);
  if (t.is("=") || one_of(t, {"return", "else", "do", "case", ";", "{", "}", "?", ":", "!", "~",
                              "|", "^", "%", "/", "[", "<", "<<"})) {
    return true;
  }
  const std::optional<std::size_t> bb = ctx.prev(b);
  if (t.is("+") || t.is("-")) { // `a + *p`, not `i++ * n`
    return !(bb && (ctx.at(*bb).is("+") || ctx.at(*bb).is("-")) && adjacent(ctx, *bb, b));
  }
  if (t.is("&")) { // `a && *p`, not `&*p` nor `a & *p`'s rare twin `T & *p`
    return bb && ctx.at(*bb).is("&") && adjacent(ctx, *bb, b);
  }
  if (t.is("(")) { // `f(*p)`, `(*p)`; not `sizeof(*p)` nor `void (*f)(int)`
    return !bb || !(declaration_word(ctx.at(*bb)) ||
                    one_of(ctx.at(*bb), {"sizeof", "decltype", "alignof", "alignas", "typeid",
                                         "noexcept", "typeof", "__typeof__", "__align__",
                                         "__launch_bounds__"}));
  }
  if (t.is(")")) { // `if (i == 0) *out = s;`
    return closes_condition(ctx, b);
  }
  if (t.is(",")) { // `fmaxf(v, *max)`, `a[i, *p]`; not `int a, *b;` nor `for (int i = 0, *q = p;`
    const std::optional<std::size_t> open = enclosing_open(ctx, b);
    const std::optional<std::size_t> word = open ? ctx.prev(*open) : std::nullopt;
    return open && ctx.at(*open).is("(") && word && non_keyword_name(ctx.at(*word)) &&
           !declares(ctx, *ctx.next(*open));
  }
  return false;
}

// `*out = s`, `float v = *p;`, `sum += *(in + i)`, `(*count)++`: a load or store through a
// pointer (the pointer a name or a parenthesised expression), one access of the pointed-to type,
// where the `*` can only be a dereference (dereference_follows). A GPU's kernel faults on a
// pointer to host memory here as with a subscript, and shared memory reached through a pointer
// has its hazards too.
std::optional<access> pointer_deref_at(const rewrite_context& ctx, std::size_t i) {
  if (!device_star(ctx, i)) {
    return std::nullopt;
  }
  const std::optional<std::size_t> before = ctx.prev(i);
  const std::optional<std::size_t> operand = ctx.next(i);
  if (!before || !operand || !dereference_follows(ctx, *before)) {
    return std::nullopt;
  }
  std::optional<std::size_t> last;
  if (non_keyword_name(ctx.at(*operand))) {
    last = operand;
  } else if (ctx.at(*operand).is("(") && !pointer_cast_close(ctx, *operand)) {
    last = group_close(ctx, *operand); // `*(p + i)`; `*(float4*)p.data` is a cast's
  }
  const std::optional<std::size_t> after = last ? ctx.next(*last) : std::nullopt;
  if (!last || ctx.at(*last).in_directive || !after ||
      one_of(ctx.at(*after), {"[", "(", ".", "->", "::", "<"}) ||
      non_keyword_name(ctx.at(*after)) || ctx.at(*after).kind == token_kind::number ||
      ctx.at(*after).kind == token_kind::literal) {
    return std::nullopt; // `*p[i]`, `*f(x)`, `*s.p`: the `*` applies to more than the name
  }
  if (increment_at(ctx, *after)) {
    return std::nullopt; // `*p++` increments the pointer
  }
  std::size_t start = i;
  std::size_t end = *last;
  widen_over_grouping(ctx, start, end);
  if (const auto call = ctx.next(end);
      call && one_of(ctx.at(*call), {"(", "[", ".", "->"})) {
    return std::nullopt; // `(*f)(x)`, `(*rows)[i]`, `(*p).x`: not an access of the whole `*p`
  }
  if (in_constant_expression(ctx, i)) {
    return std::nullopt;
  }
  return access{i, *last, use_of(ctx, i, *last)};
}

// The `;` that ends the statement holding token `i` (nothing when the file ends first).
std::optional<std::size_t> statement_end(const rewrite_context& ctx, std::size_t i) {
  int depth = 0;
  for (std::optional<std::size_t> k = i; k; k = ctx.next(*k)) {
    const token& t = ctx.at(*k);
    depth += t.nesting();
    if (depth < 0) {
      return std::nullopt;
    }
    if (depth == 0 && t.is(";")) {
      return k;
    }
  }
  return std::nullopt;
}

// A local array of device code whose bound names something (`float v[n]`): nvcc rejects a
// variable-length array there ("expression must have a constant value"); g++ accepts one as an
// extension. Its declaration is compiled with -Wvla as an error, so g++ rejects what nvcc does,
// and a bound that is a constant (`const int k = 4; float v[k];`) stays accepted. Host code
// keeps its variable-length arrays, as nvcc's host compiler does (the prelude ignores -Wvla).
void fence_variable_length_array(rewrite_context& ctx, std::size_t i, std::set<std::size_t>& done) {
  if (!ctx.in_device_code(i) || !non_keyword_name(ctx.at(i))) {
    return;
  }
  const std::optional<std::size_t> open = ctx.next(i);
  if (!open || !ctx.at(*open).is("[") || !declared_here(ctx, i)) {
    return;
  }
  const std::optional<std::size_t> close = matching_bracket(ctx, *open);
  bool names = false;
  for (std::size_t k = *open + 1; close && k < *close; ++k) {
    names = names || ctx.at(k).kind == token_kind::identifier;
  }
  const std::size_t first = statement_start(ctx, i);
  const std::optional<std::size_t> end = statement_end(ctx, i);
  if (!names || !end || ctx.edited(ctx.at(first).begin, ctx.at(*end).end) ||
      !done.insert(first).second) {
    return; // a translated __shared__ declaration (its bound must be a constant anyway)
  }
  const std::size_t begin = ctx.at(first).begin;
  ctx.add({begin, begin,
           "_Pragma(\"GCC diagnostic push\") _Pragma(\"GCC diagnostic error \\\"-Wvla\\\"\") "});
  ctx.add({ctx.at(*end).end, ctx.at(*end).end, " _Pragma(\"GCC diagnostic pop\")"});
}

} // namespace

void rewrite_accesses(rewrite_context& ctx) {
  std::set<std::size_t> fenced;
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    fence_variable_length_array(ctx, i, fenced);
  }
  struct found {
    std::size_t begin = 0;
    std::size_t end = 0;
    use how = use::read;
    std::optional<std::size_t> body;
  };
  std::vector<found> all;
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    std::optional<access> a = access_at(ctx, i);
    if (!a) {
      a = deref_at(ctx, i);
    }
    if (!a) {
      a = deref_update_at(ctx, i);
    }
    if (!a) {
      a = pointer_deref_at(ctx, i);
    }
    if (!a) {
      continue;
    }
    const std::size_t begin = ctx.at(a->start).begin;
    const std::size_t end = ctx.at(a->last).end;
    if (!ctx.edited(begin, end)) { // not inside a translated __shared__ declaration or launch
      all.push_back({begin, end, a->how, ctx.device_body(i)});
    }
  }
  std::vector<edit> accesses;
  std::set<std::size_t> bodies; // the `{` of each function that needs the check flag
  for (std::size_t k = 0; k < all.size(); ++k) {
    const found& a = all[k];
    const std::string line = std::to_string(ctx.line_at(a.begin));
    const std::string flag = a.body ? "__cugrade_chk" : "::cugrade::emu::detail::checking_shared()";
    const std::string_view text = ctx.source().substr(a.begin, a.end - a.begin);
    const bool nested = k + 1 < all.size() && all[k + 1].begin < a.end;
    if (nested || text.find('\n') != std::string_view::npos || a.how != use::read) {
      // `f(a[b[i]], flag, line)`: the inner access is translated in place. A store's target
      // takes this form too: g++ gives an assignment to a conditional `volatile` lvalue a
      // warning of its own ("using value of simple assignment"), which nvcc never gives.
      accesses.push_back({a.begin, a.begin, function_of(a.how)});
      accesses.push_back({a.end, a.end, ", " + flag + ", " + line + ")"});
    } else {
      // A read: `(flag ? f(a[i], true, line) : f(a[i], false, line))`, the same lvalue;
      // unchecked code keeps the plain access (and a volatile one's warp step), so the compiler
      // attributes its instructions (a fault's line) as it would.
      accesses.push_back({a.begin, a.end,
                          "(" + flag + " ? " + function_of(a.how) + std::string(text) + ", true, " +
                              line + ") : " + function_of(a.how) + std::string(text) + ", false, " +
                              line + "))"});
    }
    if (a.body) {
      bodies.insert(*a.body);
    }
  }
  // The flag first: an access right after the `{` is inserted at the same place, after it.
  for (const std::size_t brace : bodies) {
    const std::size_t at = ctx.at(brace).end;
    ctx.add({at, at,
             " [[maybe_unused]] const bool __cugrade_chk = "
             "::cugrade::emu::detail::checking_shared();"});
  }
  for (edit& e : accesses) {
    ctx.add(std::move(e));
  }
}

} // namespace cugrade::emu::detail
