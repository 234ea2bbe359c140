// Shared-store wavefronts per request of the reference convergent reduction, varied
// (docs/evidence/shared-store-wavefronts.md). Build: nvcc -O3 -arch=sm_90 -o shst THIS_FILE
#include <cstdio>
#include <cuda_runtime.h>
constexpr int T = 512;
__device__ float gsum(const float* in, long n) {
  float s = 0.f; const long st = (long)blockDim.x * gridDim.x;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += st) s += in[i];
  return s;
}
__global__ void ref_tree(const float* in, long n, float* r) {
  __shared__ float p[T]; unsigned t = threadIdx.x;
  p[t] = gsum(in, n);
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) { __syncthreads(); if (t < s) p[t] += p[t + s]; }
  if (t == 0) atomicAdd(r, p[0]);
}
__global__ void tree_wide_only(const float* in, long n, float* r) {   // stops at stride 32
  __shared__ float p[T]; unsigned t = threadIdx.x;
  p[t] = gsum(in, n);
  for (unsigned s = blockDim.x / 2; s >= 32; s /= 2) { __syncthreads(); if (t < s) p[t] += p[t + s]; }
  __syncthreads();
  if (t == 0) atomicAdd(r, p[0]);
}
__global__ void narrow_steps_only(const float* in, long n, float* r) { // strides 16..1 only
  __shared__ float p[T]; unsigned t = threadIdx.x;
  p[t] = gsum(in, n);
  for (unsigned s = 16; s > 0; s /= 2) { __syncthreads(); if (t < s) p[t] += p[t + s]; }
  if (t == 0) atomicAdd(r, p[0]);
}
__global__ void store_only(const float* in, long n, float* r) {
  __shared__ float p[T]; unsigned t = threadIdx.x;
  p[t] = gsum(in, n);
  __syncthreads();
  if (t == 0) atomicAdd(r, p[T - 1]);
}
__global__ void narrow_store_only(const float* in, long n, float* r) { // 16 lanes of warp 0 store, 5 times
  __shared__ float p[T]; unsigned t = threadIdx.x;
  float v = gsum(in, n);
  for (int k = 0; k < 5; ++k) { __syncthreads(); if (t < 16) p[t] = v + k; }
  __syncthreads();
  if (t == 0) atomicAdd(r, p[3]);
}
int main() {
  int sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const long n = 1L << 23; float *in, *r;
  cudaMalloc(&in, n * 4); cudaMalloc(&r, 4); cudaMemset(in, 0, n * 4);
  int grids[] = {4 * sms, sms, 1, (int)(n / T)};
  for (int g : grids) {
    ref_tree<<<g, T>>>(in, n, r);
    tree_wide_only<<<g, T>>>(in, n, r);
    narrow_steps_only<<<g, T>>>(in, n, r);
    store_only<<<g, T>>>(in, n, r);
    narrow_store_only<<<g, T>>>(in, n, r);
  }
  cudaDeviceSynchronize();
  printf("grids %d %d %d %d: %s\n", grids[0], grids[1], grids[2], grids[3], cudaGetErrorString(cudaGetLastError()));
}
