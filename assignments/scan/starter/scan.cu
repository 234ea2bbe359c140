// scan.cu: your solution to the `scan` assignment. Read README.md (next to this file) first.
//
// The contract the grader relies on:
//   * input holds n floats (n >= 1; it may be 1, or millions, and is not a power of two or a
//     multiple of your block size). output[i] must end up as input[0] + ... + input[i] (an
//     INCLUSIVE scan: output[0] == input[0]).
//   * output ARRIVES HOLDING GARBAGE: write every element of it, and nothing past output[n - 1].
//   * Each launcher below receives DEVICE pointers. It launches your kernel(s) on the default
//     stream, with the grid, block and shared memory you choose, and returns. The grader
//     allocates input and output, copies data, synchronises, checks for errors and times the
//     call.
//   * input is read-only: keep partial sums in shared memory, in output, or in scratch memory
//     you allocate.
//   * Launchers may call cudaMalloc/cudaFree (scratch), cudaMemcpy, cudaMemset,
//     cudaGetDevice, cudaGetDeviceProperties, cudaDeviceGetAttribute, cudaFuncSetAttribute,
//     cudaOccupancy*, cudaGetLastError. They may NOT create streams, events or graphs, use
//     asynchronous copies or host/managed memory, or touch files, processes, sockets, the
//     environment or clocks: a submission that does is graded `forbidden`.
//   * Keep the launcher names and signatures exactly as they are (extern "C", same types).
//
// Check your work without a GPU: `cugrade check scan .` in the folder holding this file.

#include <cuda_runtime.h>

#define SECTION_SIZE 1024

// ---------------------------------------------------------------------------------------------
// scan_kogge_stone: one element per thread; in the step with stride s, thread t adds the value
// s places to its left. log2(SECTION_SIZE) steps, about n log n additions.
// ---------------------------------------------------------------------------------------------

__global__ void kogge_stone_kernel(const float* input, long n, float* output) {
  // TODO: __shared__ float xy[SECTION_SIZE];
  // TODO: each thread loads its element (0.0f past the end of input).
  // TODO: for (stride = 1; stride < blockDim.x; stride *= 2):
  //         __syncthreads();
  //         read xy[t - stride] into a register (if t >= stride)
  //         __syncthreads();      <- every read of this step before any write
  //         xy[t] += that value
  // TODO: store xy[t] to output (only below n). For n larger than one section, also write the
  //       section's total to a scratch array, scan those totals, and add to every section the
  //       total of the sections before it (a second kernel).
}

extern "C" void scan_kogge_stone(const float* input, long n, float* output) {
  // TODO: enough blocks of SECTION_SIZE threads to cover all n elements, then the
  //       hierarchical pass.
  kogge_stone_kernel<<<1, SECTION_SIZE>>>(input, n, output);
}

// ---------------------------------------------------------------------------------------------
// scan_brent_kung: two elements per thread; an up-sweep (a reduction tree in place) and a
// down-sweep that fills in the positions the tree skipped. About 2 n additions.
// ---------------------------------------------------------------------------------------------

__global__ void brent_kung_kernel(const float* input, long n, float* output) {
  // TODO: __shared__ float xy[SECTION_SIZE]; each of SECTION_SIZE / 2 threads loads two elements.
  // TODO: up-sweep:   for (stride = 1; stride < SECTION_SIZE; stride *= 2):
  //                     __syncthreads(); k = (t + 1) * 2 * stride - 1;
  //                     if (k < SECTION_SIZE) xy[k] += xy[k - stride];
  // TODO: down-sweep: for (stride = SECTION_SIZE / 4; stride > 0; stride /= 2):
  //                     __syncthreads(); k = (t + 1) * 2 * stride - 1;
  //                     if (k + stride < SECTION_SIZE) xy[k + stride] += xy[k];
  // TODO: __syncthreads(), store both elements (only below n), and the hierarchical pass as above.
}

extern "C" void scan_brent_kung(const float* input, long n, float* output) {
  brent_kung_kernel<<<1, SECTION_SIZE / 2>>>(input, n, output);
}
