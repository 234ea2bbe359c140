// Fresh (evaluation only): 16 x 16 blocks over one-dimensional data, the grid sized as if a block
// had 16 threads and the index taken from x alone: the 16 rows of a block count the same 16
// bytes, so every byte is counted 16 times.
#include <cuda_runtime.h>

#define NUM_BINS 256

__global__ void histo_kernel(const unsigned char* buffer, long size, unsigned int* histo) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) atomicAdd(&(histo[buffer[i]]), 1);
}

extern "C" void histogram_interleaved(const unsigned char* input, long n, unsigned int* bins) {
  cudaMemset(bins, 0, NUM_BINS * sizeof(unsigned int));
  dim3 DimBlock(16, 16);
  dim3 DimGrid(ceil(n / 16.0));
  histo_kernel<<<DimGrid, DimBlock>>>(input, n, bins);
}
