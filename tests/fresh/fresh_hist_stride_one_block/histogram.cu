// Fresh (evaluation only): interleaved histogram whose grid-stride loop strides by blockDim.x
// only, so every block counts the whole input again.
#include <cuda_runtime.h>
__global__ void interleaved(const unsigned char* in, long n, unsigned int* bins) {
  for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&bins[in[i]], 1u);
}
extern "C" void histogram_interleaved(const unsigned char* in, long n, unsigned int* bins) {
  cudaMemset(bins, 0, 256 * sizeof(unsigned int));
  long want = (n + 255) / 256;
  interleaved<<<(int)(want < 8 ? want : 8), 256>>>(in, n, bins);
}
