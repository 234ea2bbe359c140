// Launch translation. `EXPR<<<config>>>(args)`, EXPR being a possibly qualified, possibly
// templated kernel name, becomes
//   ::cugrade::emu::launch(EXPR, "EXPR", __FILE__, __LINE__, config)(args)
// The text between EXPR and `<<<` (spaces, newlines) is kept, so lines never move.
#include <string>

#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu::detail {
namespace {

int angle_weight(const token& t) {
  if (t.is(">")) {
    return 1;
  }
  if (t.is(">>")) {
    return 2;
  }
  if (t.is(">>>")) {
    return 3;
  }
  if (t.is("<")) {
    return -1;
  }
  if (t.is("<<")) {
    return -2;
  }
  return 0;
}

// The first token of the kernel expression that ends just before `<<<` at `launch`.
std::optional<std::size_t> expression_start(const rewrite_context& ctx, std::size_t launch) {
  std::optional<std::size_t> i = ctx.prev(launch);
  if (i && angle_weight(ctx.at(*i)) > 0) { // template arguments: walk back to the matching '<'
    int depth = 0;
    do {
      depth += angle_weight(ctx.at(*i));
      if (depth == 0) {
        break;
      }
      i = ctx.prev(*i);
    } while (i);
    if (!i) {
      return std::nullopt;
    }
    i = ctx.prev(*i);
  }
  if (!i || ctx.at(*i).kind != token_kind::identifier) {
    return std::nullopt;
  }
  std::size_t start = *i;
  for (;;) { // qualification: ns::k, ::k, ns::template k
    const std::optional<std::size_t> colons = ctx.prev(start);
    if (!colons || !ctx.at(*colons).is("::")) {
      return start;
    }
    start = *colons;
    const std::optional<std::size_t> scope = ctx.prev(start);
    if (!scope || ctx.at(*scope).kind != token_kind::identifier) {
      return start;
    }
    start = *scope;
  }
}

// The `>>>` closing the configuration opened at `launch`.
std::optional<std::size_t> config_end(const rewrite_context& ctx, std::size_t launch) {
  int depth = 0;
  for (std::optional<std::size_t> i = ctx.next(launch); i; i = ctx.next(*i)) {
    const token& t = ctx.at(*i);
    if (t.is("(") || t.is("[") || t.is("{")) {
      ++depth;
    } else if (t.is(")") || t.is("]") || t.is("}")) {
      --depth;
    } else if (t.is(">>>") && depth == 0) {
      return i;
    } else if (t.is(";") && depth == 0) {
      break;
    }
  }
  return std::nullopt;
}

std::string quoted_name(const rewrite_context& ctx, std::size_t first, std::size_t last) {
  std::string name;
  for (std::size_t i = first; i <= last; ++i) {
    if (ctx.at(i).significant()) {
      for (const char c : ctx.at(i).text) {
        if (c == '"' || c == '\\') {
          name.push_back('\\');
        }
        name.push_back(c);
      }
    }
  }
  return name;
}

} // namespace

std::optional<std::string> rewrite_launches(rewrite_context& ctx) {
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    if (!ctx.at(i).is("<<<")) {
      continue;
    }
    const std::optional<std::size_t> start = expression_start(ctx, i);
    if (!start) {
      return ctx.where(i) + "a kernel launch `<<<...>>>` must follow the kernel's name (name, "
                            "ns::name or name<template arguments>); call the kernel by name";
    }
    const std::optional<std::size_t> end = config_end(ctx, i);
    if (!end) {
      return ctx.where(i) + "this kernel launch has no closing `>>>`";
    }
    const std::size_t last = *ctx.prev(i);
    std::string text = "::cugrade::emu::launch(";
    text.append(ctx.source().substr(ctx.at(*start).begin, ctx.at(i).begin - ctx.at(*start).begin));
    text.append(", \"" + quoted_name(ctx, *start, last) + "\", __FILE__, __LINE__, ");
    ctx.add({ctx.at(*start).begin, ctx.at(i).end, std::move(text)});
    ctx.add({ctx.at(*end).begin, ctx.at(*end).end, ")"});
  }
  return std::nullopt;
}

} // namespace cugrade::emu::detail
