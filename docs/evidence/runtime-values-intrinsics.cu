#include <cstdio>
#include <cuda_runtime.h>

// Bit, byte and dot-product intrinsics, directed-rounding conversions, and the cycle counter.
// The expected values are what an H200 prints for the same kernel (docs/evidence).
__global__ void intrinsics(float* f, long long* i) {
  i[0] = __funnelshift_l(0x89ABCDEFu, 0x01234567u, 8);
  i[1] = __funnelshift_r(0x89ABCDEFu, 0x01234567u, 8);
  i[2] = __funnelshift_lc(0x89ABCDEFu, 0x01234567u, 40);
  i[3] = __funnelshift_l(0x89ABCDEFu, 0x01234567u, 40);
  i[4] = __byte_perm(0x33221100u, 0x77665544u, 0x7531u);
  i[5] = __dp4a(0x01020304, 0x05060708, 10);
  i[6] = __dp4a(static_cast<int>(0xFF02FF04u), 0x01010101, 0);
  i[7] = __float2ll_rd(-1.5f);
  i[8] = __float2ll_ru(-1.5f);
  i[9] = __float2ll_rn(2.5f);
  i[10] = __float2ll_rz(-2.7f);
  const long long t0 = clock64();
  i[11] = clock64() >= t0 ? 1 : 0;
  f[0] = __int2float_rz(16777217);
  f[1] = __int2float_ru(16777217);
  f[2] = __int2float_rd(-16777217);
  f[3] = __ll2float_rn((1LL << 40) | 1);
  f[4] = __ull2float_ru((1ULL << 40) + 1);
  f[5] = __frsqrt_rn(4.0f);
  f[6] = __uint2float_rz(0xFFFFFFFFu);
}

extern "C" void run_intrinsics(float* f, long long* i) {
  intrinsics<<<1, 1>>>(f, i);
}
int main() {
  float* f; long long* i;
  cudaMalloc(&f, 7 * sizeof(float)); cudaMalloc(&i, 12 * sizeof(long long));
  run_intrinsics(f, i);
  float hf[7]; long long hi[12];
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, i, sizeof hi, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 12; ++k) printf("i[%d] = %lld (0x%llx)\n", k, hi[k], (unsigned long long)hi[k]);
  for (int k = 0; k < 7; ++k) printf("f[%d] = %.1f\n", k, hf[k]);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
