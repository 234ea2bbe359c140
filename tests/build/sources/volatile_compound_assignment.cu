// The reduction slides' "unrolled last warp" through a volatile pointer, twice: with compound
// assignments (lines 8-13), which C++20 deprecates and both compilers warn about once a line, and
// with plain ones (warp_reduce_plain), which neither warns about. Each launcher only zeroes P,
// through the warp's sum of zeros.
#include <cuda_runtime.h>

__device__ void warp_reduce(volatile float* sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__device__ void warp_reduce_plain(volatile float* sdata, unsigned tid) {
  sdata[tid] = sdata[tid] + sdata[tid + 32];
  sdata[tid] = sdata[tid] + sdata[tid + 16];
  sdata[tid] = sdata[tid] + sdata[tid + 8];
  sdata[tid] = sdata[tid] + sdata[tid + 4];
  sdata[tid] = sdata[tid] + sdata[tid + 2];
  sdata[tid] = sdata[tid] + sdata[tid + 1];
}

__global__ void zero_kernel(float* P, int n) {
  __shared__ float sdata[64];
  const unsigned t = threadIdx.x;
  sdata[t] = 0.0f;
  sdata[t + 32] = 0.0f;
  __syncthreads();
  if (t < 32) {
    warp_reduce(sdata, t);
    warp_reduce_plain(sdata, t);
  }
  __syncthreads();
  const int i = blockIdx.x * 32 + static_cast<int>(t);
  if (i < n) {
    P[i] = sdata[0];
  }
}

extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l) {
  zero_kernel<<<(j * l + 31) / 32, 32>>>(P, j * l + 0 * k + 0 * (M == N));
}

extern "C" void matmul_tiled(const float* M, const float* N, float* P, int j, int k, int l) {
  zero_kernel<<<(j * l + 31) / 32, 32>>>(P, j * l + 0 * k + 0 * (M == N));
}

extern "C" void matmul_dynamic(const float* M, const float* N, float* P, int j, int k, int l) {
  zero_kernel<<<(j * l + 31) / 32, 32>>>(P, j * l + 0 * k + 0 * (M == N));
}
