// The memory half of the runtime API: allocation, copies and sets, with the pointer checks a GPU
// runtime makes (the device side of a copy must lie inside one allocation, else
// cudaErrorInvalidValue, as measured on CUDA 13).
#include <cstdlib>
#include <cstring>
#include <string>

#include "cugrade_emu/api.h"
#include "harness/emu/src/device_limits.h"
#include "harness/emu/src/fault_handler.h"
#include "harness/emu/src/memory.h"
#include "harness/emu/src/reachable_host_memory.h"
#include "harness/emu/src/runtime_checks.h"
#include "harness/emu/src/state.h"

using cugrade::emu::detail::device_memory;
using cugrade::emu::detail::emulator_state;
using cugrade::emu::detail::reachable_host_memory;
namespace limits = cugrade::emu::detail::limits;

namespace {

cudaError_t result(cudaError_t e) {
  return emulator_state::instance().result(e);
}

/// The sticky error once a kernel has faulted, else success (after the canary check).
cudaError_t synchronise() {
  cugrade::emu::detail::check_canaries(nullptr);
  return cugrade::emu::detail::sticky_result();
}

bool device_side_ok(const void* p, std::size_t n) {
  return device_memory::instance().contains(p, n);
}

// Which sides of a copy `kind` says are device memory (cudaMemcpyDefault: those that are).
struct device_sides {
  bool dst = false;
  bool src = false;
};

device_sides sides_on_device(cudaMemcpyKind kind, const void* dst, const void* src) {
  auto& mem = device_memory::instance();
  switch (kind) {
  case cudaMemcpyHostToHost:
    return {};
  case cudaMemcpyHostToDevice:
    return {true, false};
  case cudaMemcpyDeviceToHost:
    return {false, true};
  case cudaMemcpyDeviceToDevice:
    return {true, true};
  case cudaMemcpyDefault:
    return {mem.is_device(dst), mem.is_device(src)};
  }
  return {};
}

bool kind_ok(cudaMemcpyKind kind, void* dst, const void* src, std::size_t n) {
  if (static_cast<unsigned>(kind) > cudaMemcpyDefault) {
    return false;
  }
  const device_sides device = sides_on_device(kind, dst, src);
  return (!device.dst || device_side_ok(dst, n)) && (!device.src || device_side_ok(src, n));
}

const char* kind_name(cudaMemcpyKind kind) {
  switch (kind) {
  case cudaMemcpyHostToHost:
    return "cudaMemcpyHostToHost";
  case cudaMemcpyHostToDevice:
    return "cudaMemcpyHostToDevice";
  case cudaMemcpyDeviceToHost:
    return "cudaMemcpyDeviceToHost";
  case cudaMemcpyDeviceToDevice:
    return "cudaMemcpyDeviceToDevice";
  case cudaMemcpyDefault:
    return "cudaMemcpyDefault";
  }
  return "an unknown direction";
}

// What is wrong with one side of a copy that `kind` says is device memory: "" when nothing.
std::string device_side_problem(const char* side, const void* p, std::size_t n) {
  if (device_side_ok(p, n)) {
    return "";
  }
  if (!device_memory::instance().is_device(p)) {
    return std::string(side) + " must be device memory (from cudaMalloc), and it is host memory";
  }
  return std::string(side) + " is a device buffer with fewer than the " + std::to_string(n) +
         " bytes copied from that address";
}

// Why `kind_ok` refused a copy, in words for the student. A pointer the launcher was handed is
// device memory already: copying it "from the host" works, copying a host array "from the
// device" does not.
std::string copy_problem(cudaMemcpyKind kind, void* dst, const void* src, std::size_t n) {
  if (dst == nullptr || src == nullptr) {
    return std::string("the ") + (dst == nullptr ? "destination" : "source") + " is a null pointer";
  }
  const device_sides device = sides_on_device(kind, dst, src);
  const std::string to = device.dst ? device_side_problem("the destination", dst, n) : "";
  const std::string from = device.src ? device_side_problem("the source", src, n) : "";
  const std::string what = !to.empty() && !from.empty() ? to + ", and " + from : to + from;
  return std::string("with ") + kind_name(kind) + ", " + what;
}

} // namespace

namespace {

// cudaMalloc and cudaMallocManaged: managed memory stays open to host code (as on a GPU).
cudaError_t allocate(void** dev_ptr, size_t size, bool managed) {
  cugrade::emu::detail::runtime_init();
  if (const cudaError_t s = synchronise(); s != cudaSuccess) {
    return s;
  }
  if (dev_ptr == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  *dev_ptr = nullptr;
  if (size == 0) {
    return cudaSuccess;
  }
  auto& mem = device_memory::instance();
  if (size > limits::total_global_mem - mem.bytes_in_use()) {
    return result(cudaErrorMemoryAllocation);
  }
  return result(mem.allocate(dev_ptr, size, managed));
}

} // namespace

extern "C" cudaError_t cudaMalloc(void** dev_ptr, size_t size) {
  return allocate(dev_ptr, size, false);
}

extern "C" cudaError_t cudaMallocManaged(void** dev_ptr, size_t size, unsigned int) {
  return allocate(dev_ptr, size, true);
}

extern "C" cudaError_t cudaFree(void* dev_ptr) {
  if (const cudaError_t s = synchronise(); s != cudaSuccess) {
    return s;
  }
  if (dev_ptr == nullptr) {
    return cudaSuccess;
  }
  return result(device_memory::instance().release(dev_ptr));
}

extern "C" cudaError_t cudaMallocHost(void** ptr, size_t size) {
  if (ptr == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  *ptr = std::aligned_alloc(256, (size + 255) / 256 * 256);
  if (*ptr == nullptr && size > 0) {
    return result(cudaErrorMemoryAllocation);
  }
  reachable_host_memory::instance().add(*ptr, size); // a GPU maps pinned memory for kernels
  return cudaSuccess;
}

extern "C" cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int) {
  return cudaMallocHost(ptr, size);
}

extern "C" cudaError_t cudaFreeHost(void* ptr) {
  reachable_host_memory::instance().remove(ptr);
  std::free(ptr);
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  if (const cudaError_t s = synchronise(); s != cudaSuccess) {
    return s;
  }
  if (static_cast<unsigned>(kind) > cudaMemcpyDefault) {
    return result(cudaErrorInvalidMemcpyDirection);
  }
  if (count == 0) {
    return cudaSuccess;
  }
  if (dst == nullptr || src == nullptr || !kind_ok(kind, dst, src, count)) {
    return emulator_state::instance().failed_call(cudaErrorInvalidValue, "cudaMemcpy",
                                                  copy_problem(kind, dst, src, count));
  }
  const device_memory::buffer_scope open(dst, src); // either side may be a device buffer
  std::memmove(dst, src, count);
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count,
                                       cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, count, kind);
}

extern "C" cudaError_t cudaMemset(void* dev_ptr, int value, size_t count) {
  if (const cudaError_t s = synchronise(); s != cudaSuccess) {
    return s;
  }
  if (count == 0) {
    return cudaSuccess;
  }
  if (!device_side_ok(dev_ptr, count)) {
    return result(cudaErrorInvalidValue);
  }
  const device_memory::buffer_scope open(dev_ptr);
  std::memset(dev_ptr, value, count);
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemsetAsync(void* dev_ptr, int value, size_t count, cudaStream_t) {
  return cudaMemset(dev_ptr, value, count);
}

extern "C" cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  *total_bytes = limits::total_global_mem;
  *free_bytes = limits::total_global_mem - device_memory::instance().bytes_in_use();
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                                          size_t offset, cudaMemcpyKind kind) {
  if (kind == cudaMemcpyHostToHost || kind == cudaMemcpyDeviceToHost) {
    return result(cudaErrorInvalidMemcpyDirection);
  }
  if (symbol == nullptr || src == nullptr) {
    return result(cudaErrorInvalidSymbol);
  }
  const device_memory::access_scope open; // the source may be a device buffer
  std::memmove(static_cast<char*>(const_cast<void*>(symbol)) + offset, src, count);
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count,
                                            size_t offset, cudaMemcpyKind kind) {
  if (kind == cudaMemcpyHostToHost || kind == cudaMemcpyHostToDevice) {
    return result(cudaErrorInvalidMemcpyDirection);
  }
  if (symbol == nullptr || dst == nullptr) {
    return result(cudaErrorInvalidSymbol);
  }
  const device_memory::access_scope open; // the destination may be a device buffer
  std::memmove(dst, static_cast<const char*>(symbol) + offset, count);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetSymbolAddress(void** dev_ptr, const void* symbol) {
  if (dev_ptr == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  if (symbol == nullptr) {
    return result(cudaErrorInvalidSymbol);
  }
  *dev_ptr = const_cast<void*>(symbol); // a __device__ variable lives in the process here
  return cudaSuccess;
}

// Reached only without a symbol's type (a null size, or a plain pointer): api.h's template answers
// sizeof for a real symbol.
extern "C" cudaError_t cudaGetSymbolSize(size_t* size, const void*) {
  return result(size == nullptr ? cudaErrorInvalidValue : cudaErrorInvalidSymbol);
}

extern "C" cudaError_t cudaMallocPitch(void** dev_ptr, size_t* pitch, size_t width, size_t height) {
  if (dev_ptr == nullptr || pitch == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  *pitch =
      (width + limits::pitch_alignment - 1) / limits::pitch_alignment * limits::pitch_alignment;
  return cudaMalloc(dev_ptr, *pitch * height);
}

// Row by row through cudaMemcpy, so each row's pointers are checked as one copy's are; the two
// buffers are opened once for all the rows (the rows' own scopes nest inside).
extern "C" cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                    size_t width, size_t height, cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) {
    return result(cudaErrorInvalidPitchValue);
  }
  const device_memory::buffer_scope open(dst, src);
  for (size_t row = 0; row < height; ++row) {
    const cudaError_t e = cudaMemcpy(static_cast<char*>(dst) + row * dpitch,
                                     static_cast<const char*>(src) + row * spitch, width, kind);
    if (e != cudaSuccess) {
      return e;
    }
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemset2D(void* dev_ptr, size_t pitch, int value, size_t width,
                                    size_t height) {
  if (width > pitch) {
    return result(cudaErrorInvalidPitchValue);
  }
  const device_memory::buffer_scope open(dev_ptr);
  for (size_t row = 0; row < height; ++row) {
    const cudaError_t e = cudaMemset(static_cast<char*>(dev_ptr) + row * pitch, value, width);
    if (e != cudaSuccess) {
      return e;
    }
  }
  return cudaSuccess;
}
