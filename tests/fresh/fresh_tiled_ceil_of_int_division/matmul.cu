// Fresh (evaluation only): a correct tiled kernel launched on ceil(l / TILE_WIDTH) blocks, where
// l / TILE_WIDTH is already an int division: the grid is rounded down and the edge tiles of P
// are never computed.
#include <cuda_runtime.h>
#include <math.h>

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float* A, const float* B, float* C, int numARows,
                                     int numAColumns, int numBColumns) {
  __shared__ float subTileM[TILE_WIDTH][TILE_WIDTH];
  __shared__ float subTileN[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int m = 0; m < (numAColumns - 1) / TILE_WIDTH + 1; ++m) {
    if (Row < numARows && m * TILE_WIDTH + tx < numAColumns)
      subTileM[ty][tx] = A[Row * numAColumns + m * TILE_WIDTH + tx];
    else
      subTileM[ty][tx] = 0;
    if (Col < numBColumns && m * TILE_WIDTH + ty < numAColumns)
      subTileN[ty][tx] = B[(m * TILE_WIDTH + ty) * numBColumns + Col];
    else
      subTileN[ty][tx] = 0;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += subTileM[ty][k] * subTileN[k][tx];
    __syncthreads();
  }
  if (Row < numARows && Col < numBColumns) C[Row * numBColumns + Col] = Pvalue;
}

extern "C" void matmul_tiled(const float* M, const float* N, float* P, int j, int k, int l) {
  dim3 dimGrid(ceil(l / TILE_WIDTH), ceil(j / TILE_WIDTH), 1);
  if (dimGrid.x == 0) dimGrid.x = 1;
  if (dimGrid.y == 0) dimGrid.y = 1;
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  matrixMultiplyShared<<<dimGrid, dimBlock>>>(M, N, P, j, k, l);
}
