// Fresh (evaluation only, written after the first evaluation): naive matmul guarding with
// row <= j && col <= l, so the row and column just past P compute and store.
#include <cuda_runtime.h>
__global__ void naive(const float* M, const float* N, float* P, int j, int k, int l) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row <= j && col <= l) {
    float v = 0;
    for (int e = 0; e < k; ++e) v += M[row * k + e] * N[e * l + col];
    P[row * l + col] = v;
  }
}
extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l) {
  dim3 b(16, 16), g((l + 15) / 16, (j + 15) / 16);
  naive<<<g, b>>>(M, N, P, j, k, l);
}
