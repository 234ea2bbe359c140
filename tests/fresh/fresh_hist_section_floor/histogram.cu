// Fresh (evaluation only): sectioned histogram whose section length is n / threads rounded
// down, so the last n % threads bytes are never counted (and n < threads counts nothing).
#include <cuda_runtime.h>
__global__ void sectioned(const unsigned char* in, long n, unsigned int* bins) {
  long threads = (long)blockDim.x * gridDim.x;
  long section = n / threads;
  long start = (blockIdx.x * (long)blockDim.x + threadIdx.x) * section;
  for (long k = 0; k < section; ++k) atomicAdd(&bins[in[start + k]], 1u);
}
extern "C" void histogram_sectioned(const unsigned char* in, long n, unsigned int* bins) {
  cudaMemset(bins, 0, 256 * sizeof(unsigned int));
  sectioned<<<4, 4>>>(in, n, bins);
}
