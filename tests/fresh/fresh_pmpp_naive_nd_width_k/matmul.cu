// Fresh (evaluation only): the textbook's naive kernel given the three sizes, with Nd indexed by
// the length of a row of Md (k) instead of a row of Nd (l).
#include <cuda_runtime.h>
#include <stdio.h>

#define BLOCK_WIDTH 16

__global__ void MatrixMulKernel(const float* Md, const float* Nd, float* Pd, int j, int k, int l) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < j && Col < l) {
    float Pvalue = 0;
    for (int e = 0; e < k; ++e)
      Pvalue += Md[Row * k + e] * Nd[e * k + Col];
    Pd[Row * l + Col] = Pvalue;
  }
}

extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l) {
  dim3 dimGrid(ceil(l / (float)BLOCK_WIDTH), ceil(j / (float)BLOCK_WIDTH), 1);
  dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, j, k, l);
}
