// Half precision (<cuda_fp16.h>) as course code uses it: conversions with every rounding, the
// loss of accumulating in half, the fused multiply-add, pairs, a warp shuffle of halves and an
// atomicAdd on a half. The expected values are IEEE binary16's (test: half_test.cpp).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void half_values(float* f, long long* i) {
  const float third = 1.0f / 3.0f;
  f[0] = __half2float(__float2half(third));
  f[1] = __half2float(__float2half_rz(third));
  f[2] = __half2float(__float2half_ru(third));
  f[3] = __half2float(__float2half_rd(-third));
  f[4] = __half2float(__float2half_rz(-third));
  __half big = __float2half(2048.0f);
  big = big + __float2half(1.0f); // 2049 is no half: ties to the even 2048
  f[5] = __half2float(big);
  f[6] = __half2float(__hfma(__float2half(3.0f), __float2half(5.0f), __float2half(7.0f)));
  f[7] = __half2float(__float2half(70000.0f)); // past the largest half, 65504
  half acc = 0.0f;
  for (int k = 0; k < 5000; ++k) {
    acc += __float2half(0.1f);
  }
  f[8] = acc;
  half2 pair = __hadd2(__floats2half2_rn(1.0f, 2.0f), __floats2half2_rn(3.0f, 4.0f));
  f[9] = __low2float(pair);
  f[10] = __high2float(pair);
  f[11] = __half2float(hsqrt(__float2half(2.0f)));
  i[0] = __half_as_ushort(__float2half(1.0f));
  i[1] = __half2int_rn(__float2half(2.5f));
  i[2] = __half2int_ru(__float2half(2.25f));
  i[3] = __hlt(__float2half(1.0f), __float2half(2.0f));
  i[4] = __hisinf(__float2half(70000.0f));
}

extern "C" void run_half_values(float* f, long long* i) {
  half_values<<<1, 1>>>(f, i);
}

// Each lane holds its lane number as a half; a shuffle tree sums them (496, exact in half). Every
// thread of two warps adds one to a half counter with atomicAdd.
__global__ void half_warp(float* sum, __half* counter) {
  __half v = __int2half_rn(static_cast<int>(threadIdx.x & 31));
  for (int offset = 16; offset > 0; offset >>= 1) {
    v = __hadd(v, __shfl_down_sync(0xffffffffu, v, offset));
  }
  if (threadIdx.x == 0) {
    *sum = __half2float(v);
  }
  atomicAdd(counter, __float2half(1.0f));
}

extern "C" void run_half_warp(float* sum, __half* counter) {
  cudaMemset(counter, 0, sizeof(__half));
  half_warp<<<1, 64>>>(sum, counter);
}
