// Fresh (evaluation only): the ECE408 way: each block writes its partial sum to an array, the
// launcher copies the partial sums to the host and adds them there, but its loop stops one short
// and never adds the last block's sum.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK_SIZE 512

__global__ void total(const float* input, float* output, int len) {
  __shared__ float partialSum[2 * BLOCK_SIZE];
  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockIdx.x * BLOCK_SIZE;
  partialSum[t] = start + t < len ? input[start + t] : 0;
  partialSum[BLOCK_SIZE + t] = start + BLOCK_SIZE + t < len ? input[start + BLOCK_SIZE + t] : 0;
  for (unsigned int stride = BLOCK_SIZE; stride >= 1; stride >>= 1) {
    __syncthreads();
    if (t < stride) partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) output[blockIdx.x] = partialSum[0];
}

extern "C" void reduce_convergent(const float* input, long n, float* result) {
  int numInputElements = (int)n;
  int numOutputElements = numInputElements / (BLOCK_SIZE << 1);
  if (numInputElements % (BLOCK_SIZE << 1)) numOutputElements++;
  float* deviceOutput;
  cudaMalloc((void**)&deviceOutput, numOutputElements * sizeof(float));
  total<<<numOutputElements, BLOCK_SIZE>>>(input, deviceOutput, numInputElements);
  float* hostOutput = (float*)malloc(numOutputElements * sizeof(float));
  cudaMemcpy(hostOutput, deviceOutput, numOutputElements * sizeof(float), cudaMemcpyDeviceToHost);
  // printf("%d partial sums\n", numOutputElements);
  for (int ii = 1; ii < numOutputElements - 1; ii++) hostOutput[0] += hostOutput[ii];
  cudaMemcpy(result, hostOutput, sizeof(float), cudaMemcpyHostToDevice);
  free(hostOutput);
  cudaFree(deviceOutput);
}
