// Fresh (evaluation only): privatised histogram that never clears its shared bins.
#include <cuda_runtime.h>
__global__ void privatized(const unsigned char* in, long n, unsigned int* bins) {
  __shared__ unsigned int local[256];
  __syncthreads();
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)blockDim.x * gridDim.x)
    atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}
extern "C" void histogram_privatized(const unsigned char* in, long n, unsigned int* bins) {
  cudaMemset(bins, 0, 256 * sizeof(unsigned int));
  long want = (n + 255) / 256;
  privatized<<<(int)(want < 64 ? want : 64), 256>>>(in, n, bins);
}
