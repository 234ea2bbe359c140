// Per-kernel runtime API: attributes (the dynamic shared memory opt-in) and the occupancy
// calculator, computed from the emulated device's limits and the static shared memory the
// kernel has been seen to use (0 before its first launch).
#include <algorithm>

#include "cugrade_emu/api.h"
#include "harness/emu/src/device_limits.h"
#include "harness/emu/src/state.h"

using cugrade::emu::detail::emulator_state;
namespace limits = cugrade::emu::detail::limits;

namespace {

cudaError_t result(cudaError_t e) {
  return emulator_state::instance().result(e);
}

} // namespace

extern "C" cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  if (func == nullptr) {
    return result(cudaErrorInvalidDeviceFunction);
  }
  auto& state = emulator_state::instance();
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
    return value >= -1 && value <= 100 ? cudaSuccess : result(cudaErrorInvalidValue);
  }
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) {
    return result(cudaErrorInvalidValue);
  }
  const std::size_t static_bytes = state.kernel(func).static_shared;
  if (value < 0 ||
      static_cast<std::size_t>(value) + static_bytes > limits::shared_per_block_optin) {
    return result(cudaErrorInvalidValue);
  }
  state.set_max_dynamic_shared(func, value);
  return cudaSuccess;
}

extern "C" cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (attr == nullptr || func == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  const auto info = emulator_state::instance().kernel(func);
  *attr = cudaFuncAttributes{};
  attr->sharedSizeBytes = info.static_shared;
  attr->maxThreadsPerBlock = static_cast<int>(limits::max_threads_per_block);
  attr->numRegs = limits::regs_per_thread;
  attr->ptxVersion = limits::major * 10 + limits::minor;
  attr->binaryVersion = attr->ptxVersion;
  attr->maxDynamicSharedSizeBytes =
      info.max_dynamic_shared >= 0
          ? info.max_dynamic_shared
          : static_cast<int>(limits::shared_per_block - info.static_shared);
  attr->preferredShmemCarveout = -1;
  return cudaSuccess;
}

extern "C" cudaError_t cudaFuncSetCacheConfig(const void*, cudaFuncCache) {
  return cudaSuccess;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks,
                                                                     const void* func,
                                                                     int block_size,
                                                                     size_t dynamic_shared) {
  if (num_blocks == nullptr || func == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  if (block_size <= 0 || block_size > static_cast<int>(limits::max_threads_per_block)) {
    *num_blocks = 0;
    return cudaSuccess;
  }
  const int warps = (block_size + 31) / 32;
  const int by_threads = limits::max_threads_per_multiprocessor / (warps * 32);
  const int by_regs = limits::regs_per_multiprocessor / (warps * 32 * limits::regs_per_thread);
  const std::size_t shared = emulator_state::instance().kernel(func).static_shared +
                             dynamic_shared + limits::reserved_shared_per_block;
  const auto by_shared = static_cast<int>(limits::shared_per_multiprocessor / shared);
  *num_blocks = std::min({by_threads, by_regs, by_shared, limits::max_blocks_per_multiprocessor});
  return cudaSuccess;
}

// The dynamic shared memory a block may ask for so that `num_blocks` blocks of `block_size`
// threads fit on one SM, as an H200 answers (docs/evidence/runtime-values.md): the SM's shared
// memory split among them, less the kernel's static arrays, within its own ceiling
// (cudaFuncGetAttributes' maxDynamicSharedSizeBytes); cudaErrorInvalidValue when the blocks'
// threads, their count or their static arrays alone do not fit.
extern "C" cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamic_shared,
                                                                 const void* func, int num_blocks,
                                                                 int block_size) {
  if (dynamic_shared == nullptr || func == nullptr || num_blocks <= 0 || block_size <= 0 ||
      block_size > static_cast<int>(limits::max_threads_per_block)) {
    return result(cudaErrorInvalidValue);
  }
  const int threads = (block_size + 31) / 32 * 32;
  if (num_blocks > limits::max_blocks_per_multiprocessor ||
      static_cast<long>(num_blocks) * threads > limits::max_threads_per_multiprocessor) {
    return result(cudaErrorInvalidValue);
  }
  cudaFuncAttributes attr{};
  if (const cudaError_t e = cudaFuncGetAttributes(&attr, func); e != cudaSuccess) {
    return e;
  }
  const std::size_t each = limits::shared_per_multiprocessor / static_cast<std::size_t>(num_blocks);
  if (each < attr.sharedSizeBytes) {
    return result(cudaErrorInvalidValue);
  }
  *dynamic_shared = std::min(each - attr.sharedSizeBytes,
                             static_cast<std::size_t>(attr.maxDynamicSharedSizeBytes));
  return cudaSuccess;
}
