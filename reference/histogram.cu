// Reference solution for the `histogram` assignment: 256 bins, one per byte value.
//
// `bins` arrives holding garbage, so every launcher first clears it (cudaMemset on the default
// stream, ordered before the kernel). The grid is sized from the device (a few blocks per
// multiprocessor) and never larger than the input needs, so n = 1 works as well as 256 MiB.

#include <cuda_runtime.h>

namespace {

constexpr int block_threads = 256;
constexpr int bin_count = 256;

// A grid that fills the device without launching blocks that would find no input.
int grid_blocks(long n) {
  int device = 0;
  int multiprocessors = 1;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device);
  const long wanted = 4L * multiprocessors;
  const long useful = (n + block_threads - 1) / block_threads;
  return static_cast<int>(wanted < useful ? wanted : useful);
}

// Lesson: atomics, and why sectioned partitioning is slow. Each thread counts one contiguous
// section with atomicAdd (many threads may hit the same bin: a plain ++ would lose updates).
// Adjacent threads read addresses a whole section apart, so a warp's loads do not coalesce.
__global__ void histogram_sectioned_kernel(const unsigned char* input, long n, unsigned int* bins) {
  const long threads = static_cast<long>(blockDim.x) * gridDim.x;
  const long thread = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long section = (n + threads - 1) / threads;
  const long start = thread * section;
  for (long i = start; i < start + section && i < n; ++i) {
    atomicAdd(&bins[input[i]], 1u);
  }
}

// Lesson: interleaved (grid-stride) partitioning coalesces. In each pass the threads of a warp
// read consecutive bytes, so one memory transaction serves the whole warp.
__global__ void histogram_interleaved_kernel(const unsigned char* input, long n,
                                             unsigned int* bins) {
  const long stride = static_cast<long>(blockDim.x) * gridDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&bins[input[i]], 1u);
  }
}

// Lesson: privatisation. Each block counts into its own shared-memory histogram (fast atomics,
// contention limited to one block), then merges it into the global bins with one atomicAdd per
// bin. The loops over bins stride by blockDim.x, so the block may have fewer threads than bins.
__global__ void histogram_privatized_kernel(const unsigned char* input, long n,
                                            unsigned int* bins) {
  __shared__ unsigned int local[bin_count];
  for (int b = threadIdx.x; b < bin_count; b += blockDim.x) {
    local[b] = 0;
  }
  __syncthreads(); // every bin is cleared before anyone counts into it

  const long stride = static_cast<long>(blockDim.x) * gridDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&local[input[i]], 1u);
  }
  __syncthreads(); // every count is in before anyone merges

  for (int b = threadIdx.x; b < bin_count; b += blockDim.x) {
    if (local[b] != 0) {
      atomicAdd(&bins[b], local[b]);
    }
  }
}

} // namespace

extern "C" void histogram_sectioned(const unsigned char* input, long n, unsigned int* bins) {
  cudaMemset(bins, 0, bin_count * sizeof(unsigned int));
  histogram_sectioned_kernel<<<grid_blocks(n), block_threads>>>(input, n, bins);
}

extern "C" void histogram_interleaved(const unsigned char* input, long n, unsigned int* bins) {
  cudaMemset(bins, 0, bin_count * sizeof(unsigned int));
  histogram_interleaved_kernel<<<grid_blocks(n), block_threads>>>(input, n, bins);
}

extern "C" void histogram_privatized(const unsigned char* input, long n, unsigned int* bins) {
  cudaMemset(bins, 0, bin_count * sizeof(unsigned int));
  histogram_privatized_kernel<<<grid_blocks(n), block_threads>>>(input, n, bins);
}
