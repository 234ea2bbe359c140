// Fresh (evaluation only): a naive kernel whose bounds check compares the row with the number of
// columns and the column with the number of rows.
#include <cuda_runtime.h>

__global__ void matmulKernel(const float* M, const float* N, float* P, int j, int k, int l) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < l && col < j) {
    float sum = 0.0f;
    for (int e = 0; e < k; e++) sum += M[row * k + e] * N[e * l + col];
    P[row * l + col] = sum;
  }
}

extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l) {
  dim3 threads(16, 16);
  dim3 blocks((l + threads.x - 1) / threads.x, (j + threads.y - 1) / threads.y);
  matmulKernel<<<blocks, threads>>>(M, N, P, j, k, l);
}
