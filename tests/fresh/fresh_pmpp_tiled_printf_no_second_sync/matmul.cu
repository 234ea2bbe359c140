// Fresh (evaluation only): the textbook's tiled kernel with bounds checks and a debugging printf
// left in, but without the second __syncthreads() of the phase loop: a fast thread loads the
// next phase's tile while its neighbours still read the current one.
#include <cuda_runtime.h>
#include <stdio.h>

#define TILE_WIDTH 16
#define DEBUG 0

__global__ void MatrixMulTiled(const float* M, const float* N, float* P, int j, int k, int l) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x; int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int ph = 0; ph < ceil(k / (float)TILE_WIDTH); ++ph) {
    if (Row < j && ph * TILE_WIDTH + tx < k) Mds[ty][tx] = M[Row * k + ph * TILE_WIDTH + tx];
    else Mds[ty][tx] = 0;
    if (ph * TILE_WIDTH + ty < k && Col < l) Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * l + Col];
    else Nds[ty][tx] = 0;
    __syncthreads();
    for (int e = 0; e < TILE_WIDTH; ++e) Pvalue += Mds[ty][e] * Nds[e][tx];
    if (DEBUG && Row == 0 && Col == 0) printf("phase %d: Pvalue = %f\n", ph, Pvalue);
  }
  if (Row < j && Col < l) P[Row * l + Col] = Pvalue;
}

extern "C" void matmul_tiled(const float* M, const float* N, float* P, int j, int k, int l) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(ceil(l / (float)TILE_WIDTH), ceil(j / (float)TILE_WIDTH));
  MatrixMulTiled<<<dimGrid, dimBlock>>>(M, N, P, j, k, l);
}
