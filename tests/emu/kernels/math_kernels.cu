// Device math: intrinsics, CUDA's min/max overloads, bit tricks. Also compiles host code that
// uses `using namespace std;` next to CUDA's global min/max, as student files do.
#include <algorithm>
#include <cmath>

#include <cuda_runtime.h>

using namespace std;

__global__ void math(float* f, long long* i) {
  f[0] = fminf(1.0f, 2.0f);
  f[1] = fmaxf(1.0f, 2.0f);
  f[2] = sqrtf(16.0f);
  f[3] = rsqrtf(4.0f);
  f[4] = __fdividef(1.0f, 4.0f);
  f[5] = __expf(0.0f);
  f[6] = __logf(1.0f);
  f[7] = __sinf(0.0f);
  f[8] = __cosf(0.0f);
  f[9] = __fmul_rn(3.0f, 2.0f);
  f[10] = __fadd_rn(3.0f, 2.0f);
  f[11] = __fmaf_rn(2.0f, 3.0f, 1.0f);
  f[12] = fmaf(2.0f, 3.0f, 2.0f);
  f[13] = max(1.5f, 2.5f);
  f[14] = ceil(1.2f);
  f[15] = floorf(1.7f);
  f[16] = abs(-2.5f);
  f[17] = min(0.5f, 0.25);
  f[18] = __int_as_float(__float_as_int(9.5f));
  f[19] = __saturatef(1.7f);
  i[0] = min(3, 4);
  i[1] = max(-3, 4);
  i[2] = abs(-5);
  i[3] = __popc(0xF0u);
  i[4] = __clz(1);
  i[5] = __ffs(8);
  i[6] = min(3u, 4);
  i[7] = __brev(1u);
  i[8] = max(3L, 7L);
  i[9] = static_cast<long long>(min(size_t{5}, size_t{9}));
  i[10] = max(-1LL, 2LL);
  i[11] = __float2int_rn(2.5f);
  i[12] = __umulhi(0x80000000u, 4u);
  i[13] = __popcll(~0ull);
}

extern "C" void run_math(float* f, long long* i) {
  math<<<1, 1>>>(f, i);
}

// Host code as students write it: std::min through `using namespace std`, CUDA's min for ints.
extern "C" int host_min(int a, int b) {
  return min(a, b) + std::min(a, b);
}
