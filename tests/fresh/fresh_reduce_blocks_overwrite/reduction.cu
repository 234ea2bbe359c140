// Fresh (evaluation only): every block stores its partial sum into *result (no atomicAdd), so
// the last block to finish wins.
#include <cuda_runtime.h>
__global__ void convergent(const float* in, long n, float* result) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  long i = blockIdx.x * (long)blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) s[t] += s[t + stride];
  }
  if (t == 0) *result = s[0];
}
extern "C" void reduce_convergent(const float* in, long n, float* result) {
  convergent<<<(int)((n + 127) / 128), 128>>>(in, n, result);
}
