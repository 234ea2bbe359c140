#pragma once
// CPU models of what kernels compute: float32 in several summation orders (must pass), and
// reduced-precision or buggy results (must fail). Test-only.

#include "harness/problems/problem.h"

#include <bit>
#include <cstdint>
#include <vector>

namespace cugrade::problems::testing {

/// x rounded to nearest-even with `bits` explicit mantissa bits (tf32 and half keep 10).
/// Exponent range is not modelled: the test inputs are far from half's limits.
inline float round_mantissa(float x, int bits) {
  const int drop = 23 - bits;
  auto word = std::bit_cast<std::uint32_t>(x);
  const std::uint32_t lsb = (word >> drop) & 1u;
  word += (1u << (drop - 1)) - 1u + lsb;
  word &= ~((1u << drop) - 1u);
  return std::bit_cast<float>(word);
}

/// P = M N with float products and sums; `round_in` is applied to every input element,
/// `round_op` to every product and every partial sum; k runs in `reverse` when asked.
/// Uses i-k-j order so the larger edge shapes stay fast.
template <class RoundIn, class RoundOp>
std::vector<float> matmul_model(const std::vector<buffer>& in, const shape& s, bool reverse,
                                RoundIn round_in, RoundOp round_op) {
  const auto j = static_cast<std::size_t>(s.j), k = static_cast<std::size_t>(s.k),
             l = static_cast<std::size_t>(s.l);
  const auto m = in[0].as<float>();
  const auto n = in[1].as<float>();
  std::vector<float> p(j * l, 0.0f);
  for (std::size_t i = 0; i < j; ++i) {
    float* row = p.data() + i * l;
    for (std::size_t t = 0; t < k; ++t) {
      const std::size_t kk = reverse ? k - 1 - t : t;
      const float a = round_in(m[i * k + kk]);
      for (std::size_t c = 0; c < l; ++c) {
        row[c] = round_op(row[c] + round_op(a * round_in(n[kk * l + c])));
      }
    }
  }
  return p;
}

/// No rounding beyond float32's own (a functor, so the models' inner loops inline it).
struct identity_fn {
  float operator()(float x) const { return x; }
};
inline constexpr identity_fn identity{};

/// Plain float32 matmul, k ascending or descending.
inline std::vector<float> matmul_f32(const std::vector<buffer>& in, const shape& s, bool reverse) {
  return matmul_model(in, s, reverse, identity, identity);
}

/// Split-k: even and odd k terms in two float accumulators, added at the end (like a kernel
/// that unrolls k by two, or one that splits k over two blocks).
std::vector<float> matmul_f32_split(const std::vector<buffer>& in, const shape& s);

/// The exact product with term `skip_k` left out (or term `twice_k` counted twice), rounded to
/// float: a kernel with an off-by-one tile loop. Pass -1 to leave either alone.
std::vector<float> matmul_rounded_exact(const std::vector<buffer>& in, const shape& s, long skip_k,
                                        long twice_k);

/// An output buffer holding these floats.
buffer f32_buffer(const std::vector<float>& values);

} // namespace cugrade::problems::testing
