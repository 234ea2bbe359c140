// matmul_tiled takes double* where the contract has float*: it would read the grader's floats
// as doubles. The build must fail and show both signatures.
#include <cuda_runtime.h>

__global__ void zero_kernel(double* P, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    P[i] = 0.0;
  }
}

extern "C" void matmul_naive(const float*, const float*, float*, int, int, int) {}

extern "C" void matmul_tiled(const double* M, const double* N, double* P, int j, int k, int l) {
  zero_kernel<<<(j * l + 255) / 256, 256>>>(P, j * l);
}

extern "C" void matmul_dynamic(const float*, const float*, float*, int, int, int) {}
