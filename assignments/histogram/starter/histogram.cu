// histogram.cu: your solution to the `histogram` assignment. Read README.md (next to this file)
// first.
//
// The contract the grader relies on:
//   * input holds n bytes (n >= 1; it may be 1, or millions, and is not a multiple of anything).
//     bins has 256 counters, one per byte value: bins[v] must end up as the number of bytes equal
//     to v. Counts are compared exactly.
//   * bins ARRIVES HOLDING GARBAGE: the launcher must produce the complete histogram, so it
//     clears the bins itself (cudaMemset, or a kernel) before counting.
//   * Each launcher below receives DEVICE pointers. It launches your kernel(s) on the default
//     stream, with the grid, block and shared memory you choose, and returns. The grader
//     allocates input and bins, copies data, synchronises, checks for errors and times the call.
//   * input is read-only.
//   * Launchers may call cudaMalloc/cudaFree (scratch), cudaMemcpy, cudaMemset,
//     cudaGetDevice, cudaGetDeviceProperties, cudaDeviceGetAttribute, cudaFuncSetAttribute,
//     cudaOccupancy*, cudaGetLastError. They may NOT create streams, events or graphs, use
//     asynchronous copies or host/managed memory, or touch files, processes, sockets, the
//     environment or clocks: a submission that does is graded `forbidden`.
//   * Keep the launcher names and signatures exactly as they are (extern "C", same types).
//
// Check your work without a GPU: `cugrade check histogram .` in the folder holding this file.

#include <cuda_runtime.h>

#define NUM_BINS 256

// ---------------------------------------------------------------------------------------------
// histogram_sectioned: each thread counts one contiguous section of the input.
// ---------------------------------------------------------------------------------------------

__global__ void histogram_sectioned_kernel(const unsigned char* input, long n,
                                           unsigned int* bins) {
  // TODO: with T threads in the grid, thread t counts input[t * section, (t + 1) * section),
  //       where section = ceil(n / T). The last sections may be short or empty: never read at
  //       or past input[n].
  // TODO: many threads hit the same bin at the same time: use atomicAdd(&bins[value], 1u).
}

extern "C" void histogram_sectioned(const unsigned char* input, long n, unsigned int* bins) {
  // bins arrives holding garbage; start from zero.
  cudaMemset(bins, 0, NUM_BINS * sizeof(unsigned int));
  // TODO: choose the block size and the number of blocks (hence the section length).
  histogram_sectioned_kernel<<<1, 256>>>(input, n, bins);
}

// ---------------------------------------------------------------------------------------------
// histogram_interleaved: grid-stride loop, so neighbouring threads read neighbouring bytes
// (coalesced).
// ---------------------------------------------------------------------------------------------

__global__ void histogram_interleaved_kernel(const unsigned char* input, long n,
                                             unsigned int* bins) {
  // TODO: for (long i = first index of this thread; i < n; i += total threads in the grid)
  //         atomicAdd(&bins[input[i]], 1u);
  //       n is a long: index with long too, so that large inputs cannot overflow an int.
}

extern "C" void histogram_interleaved(const unsigned char* input, long n, unsigned int* bins) {
  cudaMemset(bins, 0, NUM_BINS * sizeof(unsigned int));
  // TODO: choose the block size and the number of blocks.
  histogram_interleaved_kernel<<<1, 256>>>(input, n, bins);
}

// ---------------------------------------------------------------------------------------------
// histogram_privatized: a private histogram per block in shared memory, merged at the end.
// ---------------------------------------------------------------------------------------------

__global__ void histogram_privatized_kernel(const unsigned char* input, long n,
                                            unsigned int* bins) {
  // TODO: __shared__ unsigned int local_bins[NUM_BINS];
  // TODO: clear local_bins cooperatively (a block may have fewer or more than 256 threads),
  //       then __syncthreads() before anyone counts.
  // TODO: count with a grid-stride loop into local_bins (atomicAdd on shared memory).
  // TODO: __syncthreads(), then add each non-zero local bin to bins with atomicAdd.
}

extern "C" void histogram_privatized(const unsigned char* input, long n, unsigned int* bins) {
  cudaMemset(bins, 0, NUM_BINS * sizeof(unsigned int));
  // TODO: choose the block size and the number of blocks.
  histogram_privatized_kernel<<<1, 256>>>(input, n, bins);
}
