#pragma once
/// \file
/// The one CUDA checking macro: an out-of-line thrower gets the call's text, cudaGetErrorName
/// and cudaGetErrorString. The noexcept variant is for destructors only. No build configuration
/// turns a check into a no-op.

#include <cuda_runtime.h>
#include <source_location>

namespace cugrade::backends {

[[noreturn]] void throw_cuda_error(cudaError_t e, const char* call, std::source_location where);
void report_cuda_error(cudaError_t e, const char* call, std::source_location where) noexcept;

} // namespace cugrade::backends

#define CUGRADE_CUDA_CHECK(call)                                                                   \
  do {                                                                                             \
    const cudaError_t cugrade_status_ = (call);                                                    \
    if (cugrade_status_ != cudaSuccess) {                                                          \
      ::cugrade::backends::throw_cuda_error(cugrade_status_, #call,                                \
                                            std::source_location::current());                      \
    }                                                                                              \
  } while (false)

#define CUGRADE_CUDA_CHECK_NOEXCEPT(call)                                                          \
  do {                                                                                             \
    const cudaError_t cugrade_status_ = (call);                                                    \
    if (cugrade_status_ != cudaSuccess) {                                                          \
      ::cugrade::backends::report_cuda_error(cugrade_status_, #call,                               \
                                             std::source_location::current());                     \
    }                                                                                              \
  } while (false)
