// The words, tokens and file facts the region analysis reads (region_scan.h).
#include "harness/emu/detail/region_scan.h"

#include <algorithm>

#include "harness/emu/detail/file_scope.h"

namespace cugrade::emu::detail {
namespace {

void find_functions(const rewrite_context& ctx, const std::vector<bool>& at_namespace,
                    file_facts& facts) {
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    if (!at_namespace[i] || !is_name(ctx.at(i)) || ctx.at(i).in_directive) {
      continue;
    }
    const std::optional<std::size_t> open = ctx.next(i);
    if (!open || !ctx.at(*open).is("(")) {
      continue;
    }
    const std::size_t close = matching(ctx, *open);
    const std::optional<std::size_t> body = close == k_npos ? std::nullopt : ctx.next(close);
    if (!body || !ctx.at(*body).is("{")) {
      continue;
    }
    const std::size_t end = matching(ctx, *body);
    if (end != k_npos) {
      facts.functions[std::string(ctx.at(i).text)].push_back({*open, close, *body, end});
    }
  }
}

void find_macros_and_constants(const rewrite_context& ctx, const std::vector<bool>& at_namespace,
                               file_facts& facts) {
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    const token& t = ctx.at(i);
    if (t.in_directive && t.is("define")) {
      const std::optional<std::size_t> name = ctx.next(i);
      if (!name || !is_name(ctx.at(*name)) || !ctx.at(*name).in_directive) {
        continue;
      }
      std::vector<std::size_t>& body = facts.macros[std::string(ctx.at(*name).text)];
      for (std::size_t k = *name + 1;
           k < ctx.size() && ctx.at(k).in_directive && ctx.at(k).kind != token_kind::newline; ++k) {
        if (ctx.at(k).significant()) {
          body.push_back(k);
        }
      }
    } else if (at_namespace[i] && !t.in_directive && t.is("=")) {
      const std::optional<std::size_t> name = ctx.prev(i);
      const std::vector<std::size_t> head =
          name ? declaration_before(ctx, *name) : std::vector<std::size_t>{};
      const bool constant = std::any_of(head.begin(), head.end(), [&](std::size_t k) {
        return ctx.at(k).is("const") || ctx.at(k).is("constexpr");
      });
      if (constant && is_name(ctx.at(*name))) {
        facts.constants.emplace(ctx.at(*name).text);
      }
    }
  }
}

} // namespace

bool sync_word(std::string_view w) {
  static const std::set<std::string_view> words = {"volatile",
                                                   "asm",
                                                   "__asm__",
                                                   "__asm",
                                                   "__syncthreads_count",
                                                   "__syncthreads_and",
                                                   "__syncthreads_or",
                                                   "__syncwarp",
                                                   "__activemask",
                                                   "__threadfence",
                                                   "__threadfence_block",
                                                   "__threadfence_system",
                                                   "__nanosleep",
                                                   "atomicCAS",
                                                   "atomicExch",
                                                   "atomicCAS_block",
                                                   "atomicExch_block",
                                                   "atomicCAS_system",
                                                   "atomicExch_system",
                                                   "cooperative_groups",
                                                   "this_thread_block",
                                                   "this_grid",
                                                   "tiled_partition",
                                                   "coalesced_threads",
                                                   "thread_block",
                                                   "grid_group",
                                                   "thread_block_tile",
                                                   "sync",
                                                   "barrier",
                                                   "arrive",
                                                   "memcpy_async",
                                                   "setjmp",
                                                   "longjmp",
                                                   "cuda",
                                                   "wmma"};
  if (words.contains(w)) {
    return true;
  }
  for (std::string_view prefix : {"__shfl", "__ballot", "__any", "__all", "__match", "__reduce_",
                                  "__pipeline", "__cugrade_region"}) {
    if (w.starts_with(prefix)) {
      return true;
    }
  }
  return false;
}

bool structure_word(std::string_view w) {
  static const std::set<std::string_view> words = {
      "return",    "goto",    "static", "throw", "try",    "co_await", "co_yield",
      "co_return", "typedef", "using",  "class", "struct", "union",    "enum"};
  return words.contains(w);
}

bool type_word(std::string_view w) {
  static const std::set<std::string_view> words = {
      "const",   "constexpr", "unsigned", "signed",   "int",    "long",    "short",
      "char",    "float",     "double",   "bool",     "auto",   "size_t",  "register",
      "uint8_t", "uint16_t",  "uint32_t", "uint64_t", "int8_t", "int16_t", "int32_t",
      "int64_t", "float2",    "float3",   "float4",   "int2",   "int3",    "int4",
      "uint2",   "uint3",     "uint4",    "double2",  "dim3",   "half",    "__half",
      "__half2", "ptrdiff_t", "uchar4",   "char4",    "long2",  "ulong2",  "longlong2"};
  return words.contains(w);
}

bool statement_word(std::string_view w) {
  static const std::set<std::string_view> words = {
      "if",       "for",  "while", "do",     "switch", "case",   "default", "break",
      "continue", "else", "new",   "delete", "sizeof", "printf", "assert"};
  return words.contains(w);
}

std::size_t matching(const rewrite_context& ctx, std::size_t open) {
  int depth = 0;
  for (std::optional<std::size_t> k = open; k; k = ctx.next(*k)) {
    const token& t = ctx.at(*k);
    depth += t.nesting();
    if (depth == 0) {
      return *k;
    }
  }
  return k_npos;
}

std::set<std::string, std::less<>> parameter_names(const rewrite_context& ctx, std::size_t open,
                                                   std::size_t close) {
  std::set<std::string, std::less<>> names;
  for (std::size_t k = open + 1; k < close; ++k) {
    const std::optional<std::size_t> after = ctx.next(k);
    if (is_name(ctx.at(k)) && after &&
        (ctx.at(*after).is(",") || ctx.at(*after).is(")") || ctx.at(*after).is("["))) {
      names.emplace(ctx.at(k).text);
    }
  }
  return names;
}

file_facts facts_of(const rewrite_context& ctx, const std::vector<bool>& at_namespace) {
  file_facts facts;
  find_functions(ctx, at_namespace, facts);
  find_macros_and_constants(ctx, at_namespace, facts);
  return facts;
}

} // namespace cugrade::emu::detail
