#pragma once
// Why the GPU suites cannot run here ("" when a CUDA device is usable): their tests report it as
// SKIPPED, never as a pass.

#include <cuda_runtime.h>
#include <string>

namespace cugrade::testing {

inline std::string no_gpu_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    return std::string("no usable CUDA device: ") + cudaGetErrorName(e) + ": " +
           cudaGetErrorString(e);
  }
  return count == 0 ? "no CUDA device on this machine" : "";
}

} // namespace cugrade::testing
