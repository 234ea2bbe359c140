// Fresh (evaluation only): a three-kernel Brent-Kung scan (256-element sections) whose section
// totals are scanned by one launch of the same kernel, one block: 256 totals at most, so it is
// right up to n = 256 * 257 = 65,792 and wrong above.
#include <cuda_runtime.h>

#define SECTION_SIZE 256

__global__ void brent_kung(const float* X, float* Y, float* S, int InputSize) {
  __shared__ float XY[SECTION_SIZE];
  int i = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  XY[threadIdx.x] = i < InputSize ? X[i] : 0;
  XY[threadIdx.x + blockDim.x] = i + blockDim.x < InputSize ? X[i + blockDim.x] : 0;
  for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
    __syncthreads();
    int index = (threadIdx.x + 1) * stride * 2 - 1;
    if (index < SECTION_SIZE) XY[index] += XY[index - stride];
  }
  for (int stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
    __syncthreads();
    int index = (threadIdx.x + 1) * stride * 2 - 1;
    if (index + stride < SECTION_SIZE) XY[index + stride] += XY[index];
  }
  __syncthreads();
  if (i < InputSize) Y[i] = XY[threadIdx.x];
  if (i + blockDim.x < InputSize) Y[i + blockDim.x] = XY[threadIdx.x + blockDim.x];
  if (S && threadIdx.x == 0) S[blockIdx.x] = XY[SECTION_SIZE - 1];
}

__global__ void add_block_sums(float* Y, const float* S, int InputSize) {
  int i = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) return;
  if (i < InputSize) Y[i] += S[blockIdx.x - 1];
  if (i + blockDim.x < InputSize) Y[i + blockDim.x] += S[blockIdx.x - 1];
}

extern "C" void scan_brent_kung(const float* input, long n, float* output) {
  int numBlocks = ceil(n / (float)SECTION_SIZE);
  float* S;
  cudaMalloc(&S, numBlocks * sizeof(float));
  brent_kung<<<numBlocks, SECTION_SIZE / 2>>>(input, output, S, n);
  brent_kung<<<1, SECTION_SIZE / 2>>>(S, S, NULL, numBlocks);
  add_block_sums<<<numBlocks, SECTION_SIZE / 2>>>(output, S, n);
  cudaFree(S);
}
