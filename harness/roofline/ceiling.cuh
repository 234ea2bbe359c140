#pragma once
/// \file
/// A problem kind's library ceiling: the vendor library call (cuBLAS, CUB) its roofline compares a
/// kernel with. Each kind's ceiling is one file, harness/roofline/ceilings/<name>.cu, that
/// registers itself under the kind's name; the roofline program builds every file there, so a new
/// kind needs no edit here.

#include "harness/backends/cuda_check.h"
#include "harness/core/error.h"
#include "harness/problems/problem.h"
#include "harness/roofline/library_timing.cuh"
#include "harness/roofline/roofline.h"

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace cugrade::roofline {

// One device allocation, released on scope exit.
class device_memory {
public:
  explicit device_memory(std::size_t bytes) { CUGRADE_CUDA_CHECK(cudaMalloc(&m_ptr, bytes)); }
  ~device_memory() { CUGRADE_CUDA_CHECK_NOEXCEPT(cudaFree(m_ptr)); }
  device_memory(device_memory&& other) noexcept : m_ptr(std::exchange(other.m_ptr, nullptr)) {}
  device_memory(const device_memory&) = delete;
  device_memory& operator=(const device_memory&) = delete;
  device_memory& operator=(device_memory&&) = delete;
  template <class T> [[nodiscard]] T* as() const { return static_cast<T*>(m_ptr); }

private:
  void* m_ptr = nullptr;
};

/// A device copy of a host buffer.
[[nodiscard]] device_memory upload(const problems::buffer& b);

/// Times the library on one case whose inputs (from the case's distribution) are `inputs`.
using ceiling_fn = library_figure (*)(library_timer& t, const problems::case_template& c,
                                      const std::vector<problems::buffer>& inputs);

/// Registers `fn` as the ceiling of the problem called `problem` (one static object per file).
struct ceiling_registrar {
  ceiling_registrar(std::string_view problem, ceiling_fn fn);
};

/// The ceiling registered for `problem`, or nullptr.
[[nodiscard]] ceiling_fn find_ceiling(std::string_view problem);

} // namespace cugrade::roofline
