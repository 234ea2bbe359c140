// Prints what the GPU's runtime answers for the calls the emulator models: cudaMallocPitch's
// pitch and cudaOccupancyAvailableDynamicSMemPerBlock, for comparison with the emulator's.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void plain(float* p) { p[threadIdx.x] = 0; }
__global__ void with_static(float* p) {
  __shared__ float tile[2048]; // 8 KiB
  tile[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}
int main() {
  for (size_t w : {4ul, 100ul, 400ul, 512ul, 513ul, 1000ul, 4096ul, 5000ul}) {
    void* p; size_t pitch = 0;
    cudaError_t e = cudaMallocPitch(&p, &pitch, w, 3);
    printf("pitch width=%zu -> %zu (%s)\n", w, pitch, cudaGetErrorName(e));
    cudaFree(p);
  }
  for (int k = 0; k < 2; ++k) {
    for (int nb : {1, 2, 3, 4, 8, 16, 32, 33}) {
      for (int bs : {32, 128, 256, 1024}) {
        size_t s = 0;
        cudaError_t e = k == 0 ? cudaOccupancyAvailableDynamicSMemPerBlock(&s, plain, nb, bs)
                               : cudaOccupancyAvailableDynamicSMemPerBlock(&s, with_static, nb, bs);
        printf("avail kernel=%s blocks=%d threads=%d -> %zu (%s)\n", k ? "static8k" : "plain", nb, bs, s, cudaGetErrorName(e));
      }
    }
  }
  cudaFuncAttributes a; cudaFuncGetAttributes(&a, with_static);
  printf("static8k sharedSizeBytes=%zu maxDynamicSharedSizeBytes=%d\n", a.sharedSizeBytes, a.maxDynamicSharedSizeBytes);
  cudaFuncSetAttribute(plain, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000);
  size_t s = 0; cudaOccupancyAvailableDynamicSMemPerBlock(&s, plain, 1, 256);
  printf("avail kernel=plain(optin 200000) blocks=1 threads=256 -> %zu\n", s);
  return 0;
}
