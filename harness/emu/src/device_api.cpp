// The device half of the runtime API: one emulated device, its properties and attributes, errors,
// synchronisation and reset.
#include <chrono>
#include <cstring>

#include "cuda_profiler_api.h"
#include "cugrade_emu/api.h"
#include "harness/emu/src/device_limits.h"
#include "harness/emu/src/memory.h"
#include "harness/emu/src/runtime_checks.h"
#include "harness/emu/src/state.h"

using cugrade::emu::detail::emulator_state;
namespace limits = cugrade::emu::detail::limits;

namespace {

cudaError_t result(cudaError_t e) {
  return emulator_state::instance().result(e);
}

void fill_properties(cudaDeviceProp& p) {
  std::memset(&p, 0, sizeof p);
  std::strncpy(p.name, limits::device_name, sizeof p.name - 1);
  p.totalGlobalMem = limits::total_global_mem;
  p.sharedMemPerBlock = limits::shared_per_block;
  p.regsPerBlock = limits::regs_per_block;
  p.warpSize = limits::warp_size;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = static_cast<int>(limits::max_threads_per_block);
  for (int i = 0; i < 3; ++i) {
    p.maxThreadsDim[i] = static_cast<int>(limits::max_block_dim[i]);
    p.maxGridSize[i] = static_cast<int>(limits::max_grid_dim[i]);
  }
  p.totalConstMem = limits::total_const_mem;
  p.major = limits::major;
  p.minor = limits::minor;
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
  p.multiProcessorCount = limits::multiprocessor_count;
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.unifiedAddressing = 1;
  p.memoryBusWidth = limits::memory_bus_width;
  p.l2CacheSize = limits::l2_cache_size;
  p.maxThreadsPerMultiProcessor = limits::max_threads_per_multiprocessor;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = limits::shared_per_multiprocessor;
  p.regsPerMultiprocessor = limits::regs_per_multiprocessor;
  p.managedMemory = 1;
  p.sharedMemPerBlockOptin = limits::shared_per_block_optin;
  p.maxBlocksPerMultiProcessor = limits::max_blocks_per_multiprocessor;
  p.reservedSharedMemPerBlock = limits::reserved_shared_per_block;
}

bool attribute(cudaDeviceAttr attr, int& v) {
  cudaDeviceProp p;
  fill_properties(p);
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock:
    v = p.maxThreadsPerBlock;
    return true;
  case cudaDevAttrMaxBlockDimX:
    v = p.maxThreadsDim[0];
    return true;
  case cudaDevAttrMaxBlockDimY:
    v = p.maxThreadsDim[1];
    return true;
  case cudaDevAttrMaxBlockDimZ:
    v = p.maxThreadsDim[2];
    return true;
  case cudaDevAttrMaxGridDimX:
    v = p.maxGridSize[0];
    return true;
  case cudaDevAttrMaxGridDimY:
    v = p.maxGridSize[1];
    return true;
  case cudaDevAttrMaxGridDimZ:
    v = p.maxGridSize[2];
    return true;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    v = static_cast<int>(p.sharedMemPerBlock);
    return true;
  case cudaDevAttrTotalConstantMemory:
    v = static_cast<int>(p.totalConstMem);
    return true;
  case cudaDevAttrWarpSize:
    v = p.warpSize;
    return true;
  case cudaDevAttrMaxPitch:
    v = static_cast<int>(p.memPitch);
    return true;
  case cudaDevAttrMaxRegistersPerBlock:
    v = p.regsPerBlock;
    return true;
  case cudaDevAttrClockRate:
    v = 1410000;
    return true;
  case cudaDevAttrMemoryClockRate:
    v = 1215000;
    return true;
  case cudaDevAttrTextureAlignment:
    v = static_cast<int>(p.textureAlignment);
    return true;
  case cudaDevAttrMultiProcessorCount:
    v = p.multiProcessorCount;
    return true;
  case cudaDevAttrIntegrated:
    v = 0;
    return true;
  case cudaDevAttrCanMapHostMemory:
    v = 1;
    return true;
  case cudaDevAttrConcurrentKernels:
    v = 1;
    return true;
  case cudaDevAttrEccEnabled:
    v = 0;
    return true;
  case cudaDevAttrPciBusId:
  case cudaDevAttrPciDeviceId:
  case cudaDevAttrPciDomainId:
    v = 0;
    return true;
  case cudaDevAttrGlobalMemoryBusWidth:
    v = p.memoryBusWidth;
    return true;
  case cudaDevAttrL2CacheSize:
    v = p.l2CacheSize;
    return true;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    v = p.maxThreadsPerMultiProcessor;
    return true;
  case cudaDevAttrAsyncEngineCount:
    v = 0;
    return true;
  case cudaDevAttrUnifiedAddressing:
    v = 1;
    return true;
  case cudaDevAttrComputeCapabilityMajor:
    v = p.major;
    return true;
  case cudaDevAttrComputeCapabilityMinor:
    v = p.minor;
    return true;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    v = static_cast<int>(p.sharedMemPerMultiprocessor);
    return true;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    v = p.regsPerMultiprocessor;
    return true;
  case cudaDevAttrManagedMemory:
    v = 1;
    return true;
  case cudaDevAttrCooperativeLaunch:
    v = 0;
    return true;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    v = static_cast<int>(p.sharedMemPerBlockOptin);
    return true;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    v = p.maxBlocksPerMultiProcessor;
    return true;
  case cudaDevAttrReservedSharedMemoryPerBlock:
    v = static_cast<int>(p.reservedSharedMemPerBlock);
    return true;
  }
  return false;
}

} // namespace

extern "C" cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  *count = 1;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  *device = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : result(cudaErrorInvalidDevice);
}

extern "C" cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  if (device != 0) {
    return result(cudaErrorInvalidDevice);
  }
  fill_properties(*prop);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  if (device != 0) {
    return result(cudaErrorInvalidDevice);
  }
  return attribute(attr, *value) ? cudaSuccess : result(cudaErrorInvalidValue);
}

extern "C" cudaError_t cudaDeviceSynchronize(void) {
  cugrade::emu::detail::check_canaries(nullptr);
  return cugrade::emu::detail::sticky_result();
}

extern "C" cudaError_t cudaDeviceReset(void) {
  // Frees every allocation; a sticky error stays, as it does on a GPU (only a new process, or the
  // runner's reset_device(), clears it).
  cugrade::emu::detail::device_memory::instance().release_all();
  return cudaSuccess;
}

// Nothing to profile here: defined so that a submission calling them links as with nvcc (the
// symbol policy makes the call `forbidden` on both backends before anything runs).
extern "C" cudaError_t cudaProfilerStart() {
  return cudaSuccess;
}

extern "C" cudaError_t cudaProfilerStop() {
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) {
  return cudaSuccess;
}
extern "C" cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) {
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (value == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  *value =
      limit == cudaLimitStackSize ? 1024 : (limit == cudaLimitPrintfFifoSize ? 1 << 20 : 8 << 20);
  return cudaSuccess;
}

extern "C" cudaError_t cudaRuntimeGetVersion(int* version) {
  if (version == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  *version = limits::runtime_version;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDriverGetVersion(int* version) {
  return cudaRuntimeGetVersion(version);
}

extern "C" cudaError_t cudaGetLastError(void) {
  return emulator_state::instance().last_error(true);
}

extern "C" cudaError_t cudaPeekAtLastError(void) {
  return emulator_state::instance().last_error(false);
}

namespace cugrade::emu::detail {

__attribute__((visibility("default"))) long long device_clock() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace cugrade::emu::detail
