// The inputs without const (float* M as the textbook writes it, and "float const*" spelled the
// other way round): the same launcher to the caller. Accepted: it builds with every launcher.
#include <cuda_runtime.h>

__global__ void zero_kernel(float* P, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    P[i] = 0.0f;
  }
}

extern "C" void matmul_naive(float* M, float* N, float* P, int j, int k, int l) {
  zero_kernel<<<(j * l + 255) / 256, 256>>>(P, j * l + 0 * k + 0 * (M == N));
}

extern "C" void matmul_tiled(float const* __restrict__ M, float* N, float* const P, const int j,
                             int k, int l) {
  zero_kernel<<<(j * l + 255) / 256, 256>>>(P, j * l + 0 * k + 0 * (M == N));
}

extern "C" void matmul_dynamic(const float* M, const float* N, float* P, int j, int k, int l) {
  zero_kernel<<<(j * l + 255) / 256, 256>>>(P, j * l + 0 * k + 0 * (M == N));
}
