// Fresh (evaluation only): interleaved histogram that reads the input as signed char, so bytes
// of 128 and above index bins[-128..-1], before the start of the bins.
#include <cuda_runtime.h>
__global__ void interleaved(const char* in, long n, unsigned int* bins) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)blockDim.x * gridDim.x) {
    int b = in[i];
    atomicAdd(&bins[b], 1u);
  }
}
extern "C" void histogram_interleaved(const unsigned char* in, long n, unsigned int* bins) {
  cudaMemset(bins, 0, 256 * sizeof(unsigned int));
  long want = (n + 255) / 256;
  interleaved<<<(int)(want < 64 ? want : 64), 256>>>((const char*)in, n, bins);
}
