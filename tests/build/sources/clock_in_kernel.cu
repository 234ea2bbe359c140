// A kernel that reads the SM's cycle counter (clock64() and clock(), device code: allowed) and a
// launcher that times itself with the C library's clock() (host code: the contract forbids it).
#include <cuda_runtime.h>
#include <stdio.h>
#include <time.h>

__global__ void zero(float* P, int n, long long* cycles) {
  const long long start = clock64();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    P[i] = 0.0f;
  }
  if (i == 0 && cycles != nullptr) {
    *cycles = clock64() - start + (clock() > 0 ? 0 : 1);
  }
}

extern "C" void matmul_naive(const float*, const float*, float* P, int j, int, int l) {
  clock_t begin = clock();
  zero<<<(j * l + 255) / 256, 256>>>(P, j * l, nullptr);
  printf("%ld\n", (long)(clock() - begin));
}
