// reduction.cu: your solution to the `reduction` assignment. Read README.md (next to this file)
// first.
//
// The contract the grader relies on:
//   * input holds n floats (n >= 1; it may be 1, or millions, and is not a power of two or a
//     multiple of your block size). *result must end up as their sum.
//   * *result ARRIVES HOLDING GARBAGE: the launcher must set it, not add to it.
//   * Each launcher below receives DEVICE pointers. It launches your kernel(s) on the default
//     stream, with the grid, block and shared memory you choose, and returns. The grader
//     allocates input and result, copies data, synchronises, checks for errors and times the
//     call.
//   * input is read-only: keep partial sums in shared memory or in scratch memory you allocate.
//   * Launchers may call cudaMalloc/cudaFree (scratch), cudaMemcpy, cudaMemset,
//     cudaGetDevice, cudaGetDeviceProperties, cudaDeviceGetAttribute, cudaFuncSetAttribute,
//     cudaOccupancy*, cudaGetLastError. They may NOT create streams, events or graphs, use
//     asynchronous copies or host/managed memory, or touch files, processes, sockets, the
//     environment or clocks: a submission that does is graded `forbidden`.
//   * Keep the launcher names and signatures exactly as they are (extern "C", same types).
//
// Check your work without a GPU: `cugrade check reduction .` in the folder holding this file.

#include <cuda_runtime.h>

#define BLOCK_SIZE 256

// ---------------------------------------------------------------------------------------------
// reduce_interleaved: stride doubling; thread t is active while t % (2 * stride) == 0.
// ---------------------------------------------------------------------------------------------

__global__ void reduce_interleaved_kernel(const float* input, long n, float* result) {
  // TODO: __shared__ float partial[BLOCK_SIZE];
  // TODO: each thread loads its element (0.0f past the end of input: n is not a multiple of
  //       the block size), then __syncthreads().
  // TODO: for (stride = 1; stride < blockDim.x; stride *= 2):   (blockDim.x a power of two)
  //         if (t % (2 * stride) == 0) partial[t] += partial[t + stride];
  //         __syncthreads();      <- every thread of the block, every iteration
  // TODO: thread 0 adds partial[0] to *result with atomicAdd (one add per block).
}

extern "C" void reduce_interleaved(const float* input, long n, float* result) {
  // *result arrives holding garbage. Blocks that accumulate into it with atomicAdd need it at
  // zero first.
  cudaMemset(result, 0, sizeof(float));
  // TODO: enough blocks of BLOCK_SIZE threads to cover all n elements (round up).
  reduce_interleaved_kernel<<<1, BLOCK_SIZE>>>(input, n, result);
}

// ---------------------------------------------------------------------------------------------
// reduce_convergent: stride halving; thread t is active while t < stride, so active threads stay
// together in the first warps (less divergence, no shared-memory bank conflicts).
// ---------------------------------------------------------------------------------------------

__global__ void reduce_convergent_kernel(const float* input, long n, float* result) {
  // TODO: as above, but
  //         for (stride = blockDim.x / 2; stride >= 1; stride /= 2):
  //           if (t < stride) partial[t] += partial[t + stride];
  //           __syncthreads();
}

extern "C" void reduce_convergent(const float* input, long n, float* result) {
  cudaMemset(result, 0, sizeof(float));
  // TODO: enough blocks of BLOCK_SIZE threads to cover all n elements (round up).
  reduce_convergent_kernel<<<1, BLOCK_SIZE>>>(input, n, result);
}
