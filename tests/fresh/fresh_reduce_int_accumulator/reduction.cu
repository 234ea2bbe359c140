// Fresh (evaluation only, written after the first evaluation): convergent reduction whose
// per-thread accumulator is an int, so every real-valued input is truncated.
#include <cuda_runtime.h>
__global__ void convergent(const float* in, long n, float* result) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  int acc = 0;
  for (long i = blockIdx.x * (long)blockDim.x + t; i < n; i += (long)blockDim.x * gridDim.x)
    acc += in[i];
  s[t] = acc;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) s[t] += s[t + stride];
  }
  if (t == 0) atomicAdd(result, s[0]);
}
extern "C" void reduce_convergent(const float* in, long n, float* result) {
  cudaMemset(result, 0, sizeof(float));
  long want = (n + 255) / 256;
  convergent<<<(int)(want < 128 ? want : 128), 256>>>(in, n, result);
}
