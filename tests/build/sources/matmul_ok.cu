// A correct submission: three launchers with C linkage over device pointers, each launching its
// own kernel with its own geometry. Uses only what the contract allows.
#include <cuda_runtime.h>

#define TILE 16

__global__ void naive_kernel(const float* M, const float* N, float* P, int j, int k, int l) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < j && col < l) {
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) {
      sum += M[row * k + i] * N[i * l + col];
    }
    P[row * l + col] = sum;
  }
}

__global__ void tiled_kernel(const float* M, const float* N, float* P, int j, int k, int l) {
  __shared__ float a[TILE][TILE];
  __shared__ float b[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (k + TILE - 1) / TILE; ++t) {
    a[ty][tx] = (row < j && t * TILE + tx < k) ? M[row * k + t * TILE + tx] : 0.0f;
    b[ty][tx] = (col < l && t * TILE + ty < k) ? N[(t * TILE + ty) * l + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) {
      sum += a[ty][i] * b[i][tx];
    }
    __syncthreads();
  }
  if (row < j && col < l) {
    P[row * l + col] = sum;
  }
}

__global__ void dynamic_kernel(const float* M, const float* N, float* P, int j, int k, int l,
                               int w) {
  extern __shared__ float tiles[];
  float* a = tiles;
  float* b = tiles + w * w;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * w + ty, col = blockIdx.x * w + tx;
  float sum = 0.0f;
  for (int t = 0; t < (k + w - 1) / w; ++t) {
    a[ty * w + tx] = (row < j && t * w + tx < k) ? M[row * k + t * w + tx] : 0.0f;
    b[ty * w + tx] = (col < l && t * w + ty < k) ? N[(t * w + ty) * l + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < w; ++i) {
      sum += a[ty * w + i] * b[i * w + tx];
    }
    __syncthreads();
  }
  if (row < j && col < l) {
    P[row * l + col] = sum;
  }
}

extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l) {
  const dim3 block(16, 16);
  const dim3 grid((l + 15) / 16, (j + 15) / 16);
  naive_kernel<<<grid, block>>>(M, N, P, j, k, l);
}

extern "C" void matmul_tiled(const float* M, const float* N, float* P, int j, int k, int l) {
  const dim3 block(TILE, TILE);
  const dim3 grid((l + TILE - 1) / TILE, (j + TILE - 1) / TILE);
  tiled_kernel<<<grid, block>>>(M, N, P, j, k, l);
}

extern "C" void matmul_dynamic(const float* M, const float* N, float* P, int j, int k, int l) {
  int device = 0;
  cudaGetDevice(&device);
  cudaDeviceProp properties{};
  cudaGetDeviceProperties(&properties, device);
  const int w = properties.sharedMemPerBlock >= 2 * 32 * 32 * sizeof(float) ? 32 : 16;
  const dim3 block(w, w);
  const dim3 grid((l + w - 1) / w, (j + w - 1) / w);
  dynamic_kernel<<<grid, block, 2 * w * w * sizeof(float)>>>(M, N, P, j, k, l, w);
}
