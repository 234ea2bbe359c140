#pragma once
/// \file
/// Stands in for CUDA's <cooperative_groups/reduce.h>: `reduce(tile, value, op)` over a tile of
/// a warp, with the operators `plus`, `less` (the lesser), `greater`
/// (the greater), `bit_and`, `bit_or` and `bit_xor`, or any callable. Every thread of the group
/// gets the result. Floating-point sums combine in a butterfly, as a GPU's do; their last bits
/// may differ from a GPU's, as any reordering may.

#include <cooperative_groups.h>

#define CUGRADE_CG_HERE const char *file = __builtin_FILE(), int line = __builtin_LINE()

namespace cooperative_groups {

template <class T> struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T> struct less {
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T> struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T> struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

template <unsigned int Size, class ParentT, class T, class Op>
T reduce(const thread_block_tile<Size, ParentT>& g, T value, Op op, CUGRADE_CG_HERE) {
  for (unsigned offset = Size / 2; offset > 0; offset /= 2) {
    value = op(value, g.shfl_xor(value, offset, file, line));
  }
  return value;
}

} // namespace cooperative_groups

#undef CUGRADE_CG_HERE
