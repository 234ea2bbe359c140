#pragma once
/// \file
/// The CUDA runtime API subset the emulator implements: error codes with CUDA's names and numbers,
/// the device-property structures with CUDA 13's field names, and the `cuda*` functions with C
/// linkage (so a compiled submission references the same symbols under nvcc and here).
/// Host-side only: a runner may include this (as <cuda_runtime_api.h>) without the device macros.

#include <cstddef>

#include "cugrade_emu/types.h"

/// Error codes: names and numbers as in CUDA 13's driver_types.h.
enum cudaError : int {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorHardwareStackError = 714,
  cudaErrorIllegalInstruction = 715,
  cudaErrorMisalignedAddress = 716,
  cudaErrorInvalidAddressSpace = 717,
  cudaErrorInvalidPc = 718,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

/// Device attributes (numbers as in CUDA 13); cudaDeviceGetAttribute answers the ones listed here.
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrPciDomainId = 50,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrReservedSharedMemoryPerBlock = 111
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02
};

struct cudaUUID_t {
  char bytes[16];
};

/// Device properties: CUDA 13's field names (fields CUDA 13 removed, such as clockRate, are absent
/// here too, so code that compiles against CUDA 13 compiles against the emulator).
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture2D[2];
  int maxTexture3D[3];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int memoryPoolsSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int reserved[56];
};

/// What cudaFuncGetAttributes reports about a kernel.
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};

struct CUstream_st;
struct CUevent_st;
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01

// The runtime library hides everything but its API.
#pragma GCC visibility push(default)
extern "C" {
// Memory.
cudaError_t cudaMalloc(void** dev_ptr, size_t size);
cudaError_t cudaMallocManaged(void** dev_ptr, size_t size,
                              unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaFree(void* dev_ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* dev_ptr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* dev_ptr, int value, size_t count, cudaStream_t stream = nullptr);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
cudaError_t cudaGetSymbolAddress(void** dev_ptr, const void* symbol);
cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol);
// Pitched (2-D) allocations: each row starts at a multiple of 512 bytes, as on the GPU.
cudaError_t cudaMallocPitch(void** dev_ptr, size_t* pitch, size_t width, size_t height);
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemset2D(void* dev_ptr, size_t pitch, int value, size_t width, size_t height);

// Device.
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaDriverGetVersion(int* version);

// Errors.
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

// Kernels.
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value);
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func);
cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache config);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, const void* func,
                                                          int block_size,
                                                          size_t dynamic_shared_bytes);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamic_shared_bytes,
                                                      const void* func, int num_blocks,
                                                      int block_size);

// Streams and events: the emulator runs everything synchronously on one queue.
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
}
#pragma GCC visibility pop

// C++ conveniences, as CUDA's cuda_runtime.h declares them.
template <class T> inline cudaError_t cudaMalloc(T** dev_ptr, size_t size) {
  return ::cudaMalloc(reinterpret_cast<void**>(dev_ptr), size);
}
template <class T>
inline cudaError_t cudaMallocManaged(T** dev_ptr, size_t size,
                                     unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged(reinterpret_cast<void**>(dev_ptr), size, flags);
}
template <class T> inline cudaError_t cudaMallocHost(T** ptr, size_t size) {
  return ::cudaMallocHost(reinterpret_cast<void**>(ptr), size);
}
template <class T> inline cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
inline cudaError_t cudaMallocPitch(T** dev_ptr, size_t* pitch, size_t width, size_t height) {
  return ::cudaMallocPitch(reinterpret_cast<void**>(dev_ptr), pitch, width, height);
}
template <class T>
inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* bytes, T* func,
                                                             int num_blocks, int block_size) {
  return ::cudaOccupancyAvailableDynamicSMemPerBlock(bytes, reinterpret_cast<const void*>(func),
                                                     num_blocks, block_size);
}
template <class T> inline cudaError_t cudaFuncSetAttribute(T* func, cudaFuncAttribute a, int v) {
  return ::cudaFuncSetAttribute(reinterpret_cast<const void*>(func), a, v);
}
template <class T> inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* a, T* func) {
  return ::cudaFuncGetAttributes(a, reinterpret_cast<const void*>(func));
}
template <class T> inline cudaError_t cudaFuncSetCacheConfig(T* func, cudaFuncCache c) {
  return ::cudaFuncSetCacheConfig(reinterpret_cast<const void*>(func), c);
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, T* func, int block_size,
                                                                 size_t dynamic_shared_bytes) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, reinterpret_cast<const void*>(func),
                                                         block_size, dynamic_shared_bytes);
}
/// The block size that gives `func` the most resident threads per multiprocessor (the largest
/// such size, in whole warps, up to `block_size_limit` when it is positive), and the smallest grid
/// that fills the device at that size; `shared_of(block_size)` gives the dynamic shared memory a
/// block of that size needs. The search CUDA's own header makes, over the emulated device.
template <class SharedOf, class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int* min_grid_size, int* block_size, T func, SharedOf shared_of, int block_size_limit = 0,
    unsigned int /*flags*/ = 0) {
  if (min_grid_size == nullptr || block_size == nullptr || func == nullptr) {
    return cudaErrorInvalidValue;
  }
  int largest = 0;
  int per_sm_threads = 0;
  int sms = 0;
  ::cudaDeviceGetAttribute(&largest, cudaDevAttrMaxThreadsPerBlock, 0);
  ::cudaDeviceGetAttribute(&per_sm_threads, cudaDevAttrMaxThreadsPerMultiProcessor, 0);
  ::cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  if (block_size_limit > 0 && block_size_limit < largest) {
    largest = block_size_limit;
  }
  int best_threads = 0;
  int best_size = 0;
  int best_blocks = 0;
  for (int size = (largest + 31) / 32 * 32; size > 0; size -= 32) {
    const int tried = size > largest ? largest : size;
    int blocks = 0;
    const cudaError_t e = ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, reinterpret_cast<const void*>(func), tried, static_cast<size_t>(shared_of(tried)));
    if (e != cudaSuccess) {
      return e;
    }
    if (blocks * tried > best_threads) {
      best_threads = blocks * tried;
      best_size = tried;
      best_blocks = blocks;
    }
    if (best_threads >= per_sm_threads) {
      break;
    }
  }
  *block_size = best_size;
  *min_grid_size = best_blocks * sms;
  return cudaSuccess;
}
template <class SharedOf, class T>
inline cudaError_t
cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size, int* block_size, T func,
                                               SharedOf shared_of, int block_size_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid_size, block_size, func,
                                                                 shared_of, block_size_limit);
}
template <class T>
inline cudaError_t
cudaOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid_size, int* block_size, T func,
                                            size_t dynamic_shared_bytes = 0,
                                            int block_size_limit = 0, unsigned int flags = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      min_grid_size, block_size, func, [=](int) { return dynamic_shared_bytes; }, block_size_limit,
      flags);
}
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, T func,
                                                      size_t dynamic_shared_bytes = 0,
                                                      int block_size_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeWithFlags(min_grid_size, block_size, func,
                                                     dynamic_shared_bytes, block_size_limit);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count,
                                      size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol(static_cast<const void*>(&symbol), src, count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, static_cast<const void*>(&symbol), count, offset, kind);
}
template <class T> inline cudaError_t cudaGetSymbolAddress(void** dev_ptr, const T& symbol) {
  return ::cudaGetSymbolAddress(dev_ptr, static_cast<const void*>(&symbol));
}
template <class T> inline cudaError_t cudaGetSymbolSize(size_t* size, const T& symbol) {
  if (size == nullptr) {
    return ::cudaGetSymbolSize(size, static_cast<const void*>(&symbol));
  }
  *size = sizeof(T);
  return cudaSuccess;
}
