// matmul_naive is right; matmul_tiled forgot extern "C" (C++ linkage, so its name is mangled);
// matmul_dynamic is not written at all.
#include <cuda_runtime.h>

__global__ void zero_kernel(float* P, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    P[i] = 0.0f;
  }
}

extern "C" void matmul_naive(const float*, const float*, float* P, int j, int, int l) {
  zero_kernel<<<(j * l + 255) / 256, 256>>>(P, j * l);
}

void matmul_tiled(const float*, const float*, float* P, int j, int, int l) {
  zero_kernel<<<(j * l + 255) / 256, 256>>>(P, j * l);
}
