#include "tests/problems/float_models.h"

#include <cstring>

namespace cugrade::problems::testing {

std::vector<float> matmul_f32_split(const std::vector<buffer>& in, const shape& s) {
  const auto j = static_cast<std::size_t>(s.j), k = static_cast<std::size_t>(s.k),
             l = static_cast<std::size_t>(s.l);
  const auto m = in[0].as<float>();
  const auto n = in[1].as<float>();
  std::vector<float> even(l), odd(l), p(j * l);
  for (std::size_t i = 0; i < j; ++i) {
    std::fill(even.begin(), even.end(), 0.0f);
    std::fill(odd.begin(), odd.end(), 0.0f);
    for (std::size_t kk = 0; kk < k; ++kk) {
      auto& acc = kk % 2 == 0 ? even : odd;
      for (std::size_t c = 0; c < l; ++c) {
        acc[c] += m[i * k + kk] * n[kk * l + c];
      }
    }
    for (std::size_t c = 0; c < l; ++c) {
      p[i * l + c] = even[c] + odd[c];
    }
  }
  return p;
}

std::vector<float> matmul_rounded_exact(const std::vector<buffer>& in, const shape& s, long skip_k,
                                        long twice_k) {
  const auto j = static_cast<std::size_t>(s.j), k = static_cast<std::size_t>(s.k),
             l = static_cast<std::size_t>(s.l);
  const auto m = in[0].as<float>();
  const auto n = in[1].as<float>();
  std::vector<double> row(l);
  std::vector<float> p(j * l);
  for (std::size_t i = 0; i < j; ++i) {
    std::fill(row.begin(), row.end(), 0.0);
    for (std::size_t kk = 0; kk < k; ++kk) {
      const long times =
          (static_cast<long>(kk) == skip_k ? 0 : 1) + (static_cast<long>(kk) == twice_k ? 1 : 0);
      const double a = times * static_cast<double>(m[i * k + kk]);
      for (std::size_t c = 0; c < l; ++c) {
        row[c] += a * n[kk * l + c];
      }
    }
    for (std::size_t c = 0; c < l; ++c) {
      p[i * l + c] = static_cast<float>(row[c]);
    }
  }
  return p;
}

buffer f32_buffer(const std::vector<float>& values) {
  buffer b;
  b.type = element_type::f32;
  b.bytes.resize(values.size() * sizeof(float));
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

} // namespace cugrade::problems::testing
