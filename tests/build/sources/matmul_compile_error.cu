// A submission with a compile error on line 8: `sum` is never declared.
#include <cuda_runtime.h>

__global__ void naive_kernel(const float* M, const float* N, float* P, int j, int k, int l) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < k; ++i) {
    sum += M[row * k + i] * N[i * l + col];
  }
  P[row * l + col] = 0.0f;
}

extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l) {
  naive_kernel<<<dim3((l + 15) / 16, (j + 15) / 16), dim3(16, 16)>>>(M, N, P, j, k, l);
}
