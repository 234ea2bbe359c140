// Fresh (evaluation only): convergent reduction launched on n / 256 blocks (rounded down, at
// least one): the last partial block of the input is never summed.
#include <cuda_runtime.h>
__global__ void convergent(const float* in, long n, float* result) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  long i = blockIdx.x * (long)blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) s[t] += s[t + stride];
  }
  if (t == 0) atomicAdd(result, s[0]);
}
extern "C" void reduce_convergent(const float* in, long n, float* result) {
  cudaMemset(result, 0, sizeof(float));
  long blocks = n / 256;
  convergent<<<(int)(blocks > 0 ? blocks : 1), 256>>>(in, n, result);
}
