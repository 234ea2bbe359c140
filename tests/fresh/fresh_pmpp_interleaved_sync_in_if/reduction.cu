// Fresh (evaluation only): the textbook's interleaved reduction (partialSum, t % (2 * stride))
// with the barrier moved inside the if: the threads that add nothing skip it.
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

__global__ void total(const float* input, float* output, long len) {
  __shared__ float partialSum[2 * BLOCK_SIZE];
  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockIdx.x * blockDim.x;
  partialSum[t] = (start + t < len) ? input[start + t] : 0.0f;
  partialSum[blockDim.x + t] =
      (start + blockDim.x + t < len) ? input[start + blockDim.x + t] : 0.0f;
  for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
    if (t % stride == 0) {
      __syncthreads();
      partialSum[2 * t] += partialSum[2 * t + stride];
    }
  }
  if (t == 0) atomicAdd(output, partialSum[0]);
}

extern "C" void reduce_interleaved(const float* input, long n, float* result) {
  cudaMemset(result, 0, sizeof(float));
  int numBlocks = ceil(n / (2.0 * BLOCK_SIZE));
  total<<<numBlocks, BLOCK_SIZE>>>(input, result, n);
}
