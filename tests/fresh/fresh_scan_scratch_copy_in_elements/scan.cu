// Fresh (evaluation only): the input is read-only, so the launcher scans a copy of it in scratch
// memory, but copies n bytes where n floats take n * sizeof(float): only the first quarter of
// the input reaches the scan.
#include <cuda_runtime.h>

#define SECTION_SIZE 1024

__global__ void scan_sections(float* XY_global, float* sums, unsigned int n) {
  __shared__ float XY[SECTION_SIZE];
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  XY[threadIdx.x] = (i < n) ? XY_global[i] : 0.0f;
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    float temp = 0.0f;
    if (threadIdx.x >= stride) temp = XY[threadIdx.x - stride];
    __syncthreads();
    if (threadIdx.x >= stride) XY[threadIdx.x] += temp;
  }
  if (i < n) XY_global[i] = XY[threadIdx.x];
  if (threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = XY[threadIdx.x];
}

__global__ void add_sums(float* Y, const float* sums, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n) Y[i] += sums[blockIdx.x - 1];
}

static void scan_in_place(float* data, unsigned int n) {
  unsigned int blocks = (n + SECTION_SIZE - 1) / SECTION_SIZE;
  float* sums;
  cudaMalloc(&sums, blocks * sizeof(float));
  scan_sections<<<blocks, SECTION_SIZE>>>(data, sums, n);
  if (blocks > 1) {
    scan_in_place(sums, blocks);
    add_sums<<<blocks, SECTION_SIZE>>>(data, sums, n);
  }
  cudaFree(sums);
}

extern "C" void scan_kogge_stone(const float* input, long n, float* output) {
  cudaMemcpy(output, input, n, cudaMemcpyDeviceToDevice);
  scan_in_place(output, (unsigned int)n);
}
