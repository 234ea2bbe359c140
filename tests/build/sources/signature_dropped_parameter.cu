// matmul_naive lost its last parameter (l): extern "C", so the name alone would link, and the
// grader would call it with six arguments. The build must fail and show both signatures.
#include <cuda_runtime.h>

__global__ void zero_kernel(float* P, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    P[i] = 0.0f;
  }
}

extern "C" void matmul_naive(const float* M, const float* N, float* P, int j,
                             int k) {
  zero_kernel<<<(j * k + 255) / 256, 256>>>(P, j * k);
}

extern "C" void matmul_tiled(const float*, const float*, float* P, int j, int, int l) {
  zero_kernel<<<(j * l + 255) / 256, 256>>>(P, j * l);
}

extern "C" void matmul_dynamic(const float*, const float*, float* P, int j, int, int l) {
  zero_kernel<<<(j * l + 255) / 256, 256>>>(P, j * l);
}
