// A tiled matmul whose phase count is declared with decltype, a declaration the emulator's
// region forms do not follow: its region form does not compile, the kernel itself does.
#include <cuda_runtime.h>

#define TILE 16

__global__ void tiled_kernel(const float* M, const float* N, float* P, int j, int k, int l) {
  __shared__ float Ms[TILE][TILE];
  __shared__ float Ns[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  decltype(sum) scale = 1;
  for (int ph = 0; ph < (k + TILE - 1) / TILE; ++ph) {
    const int mc = ph * TILE + threadIdx.x, nr = ph * TILE + threadIdx.y;
    Ms[threadIdx.y][threadIdx.x] = row < j && mc < k ? M[row * k + mc] : 0;
    Ns[threadIdx.y][threadIdx.x] = nr < k && col < l ? N[nr * l + col] : 0;
    __syncthreads();
    for (int e = 0; e < TILE; ++e) {
      sum += Ms[threadIdx.y][e] * Ns[e][threadIdx.x];
    }
    __syncthreads();
  }
  if (row < j && col < l) {
    P[row * l + col] = scale * sum;
  }
}

extern "C" void matmul_tiled(const float* M, const float* N, float* P, int j, int k, int l) {
  tiled_kernel<<<dim3((l + TILE - 1) / TILE, (j + TILE - 1) / TILE), dim3(TILE, TILE)>>>(M, N, P, j,
                                                                                         k, l);
}
