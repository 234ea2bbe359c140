// Launch syntax variants and launch validation.
#include <cuda_runtime.h>

namespace ns {
__global__ void fill(int* out, int value) {
  out[threadIdx.x] = value;
}
namespace inner {
__global__ void fill_twice(int* out, int value) {
  out[threadIdx.x] = 2 * value;
}
} // namespace inner
} // namespace ns

template <int N> __global__ void fill_constant(int* out) {
  out[threadIdx.x] = N;
}
template <class T, int N> __global__ void fill_typed(T* out) {
  out[threadIdx.x] = T(N);
}

// One record per thread: its thread and block coordinates and the dimensions it sees.
__global__ void record_ids(unsigned* out) {
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned* r = out + 9 * (block * threads + t);
  r[0] = threadIdx.x, r[1] = threadIdx.y, r[2] = threadIdx.z;
  r[3] = blockIdx.x, r[4] = blockIdx.y, r[5] = blockIdx.z;
  r[6] = blockDim.x * 1000000 + blockDim.y * 1000 + blockDim.z;
  r[7] = gridDim.x * 1000000 + gridDim.y * 1000 + gridDim.z;
  r[8] = warpSize;
}

__global__ void use_dynamic(float* out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = 1.0f;
  out[threadIdx.x] = dyn[threadIdx.x];
}

// 32000 bytes in the kernel and 20000 in the function it calls: each under the 48 KiB static limit
// (so each compiles: the rewriter checks a function's own arrays), together over it. ptxas counts
// both for the kernel ("uses too much shared data (0xcb20 bytes, 0xc000 max)"), and the emulator
// finds it when the block reaches the second declaration.
__device__ float helper_with_shared(unsigned t) {
  __shared__ float more[5000];
  more[t] = 2.0f;
  __syncthreads();
  return more[(t + 1) % 32];
}

__global__ void too_much_static(float* out) {
  __shared__ float big[8000];
  big[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = big[(threadIdx.x + 1) % 32] + helper_with_shared(threadIdx.x);
}

extern "C" void launch_qualified(int* out) {
  ns::fill<<<1, 32>>>(out, 7);
}
extern "C" void launch_nested(int* out) {
  ::ns::inner::fill_twice<<<1, 32>>>(out, 4);
}
extern "C" void launch_template(int* out) {
  fill_constant<5><<<1, 32>>>(out);
}
extern "C" void launch_template2(int* out) {
  fill_typed<int, 3><<<1, 32>>>(out);
}
extern "C" void launch_multiline(int* out) {
  ns::fill<<<dim3(1), dim3(32), 0, 0>>>(out, 9);
  /* a launch in a comment is left alone: ns::fill<<<1, 1>>>(out, 1); */
  const char* text = "ns::fill<<<1, 1>>>(out, 1)";
  (void)text;
}
extern "C" void launch_records(unsigned* out, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz) {
  record_ids<<<dim3(gx, gy, gz), dim3(bx, by, bz)>>>(out);
}
extern "C" void launch_too_many_threads(int* out) {
  ns::fill<<<1, 2048>>>(out, 1); // LINE:too_many_threads
}
extern "C" void launch_geometry(int* out, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                unsigned by, unsigned bz) {
  ns::fill<<<dim3(gx, gy, gz), dim3(bx, by, bz)>>>(out, 1);
}
extern "C" void launch_dynamic(float* out, unsigned bytes) {
  use_dynamic<<<1, 32, bytes>>>(out);
}
extern "C" int raise_dynamic_limit(int bytes) {
  return cudaFuncSetAttribute(use_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
extern "C" void launch_too_much_static(float* out) {
  too_much_static<<<1, 32>>>(out);
}
