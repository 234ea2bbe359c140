// matmul.cu: your solution to the `matmul` assignment. Read README.md (next to this file) first.
//
// The contract the grader relies on:
//   * P = M * N in row-major order. M is j x k, N is k x l, P is j x l; element (r, c) of M is
//     M[r * k + c]. j, k and l are >= 1, usually different, and NOT multiples of 16, 32 or any
//     other tile width: every kernel must cope with partial blocks and partial tiles.
//   * Each launcher below receives DEVICE pointers. It launches your kernel(s) on the default
//     stream, with the grid, block and shared memory you choose, and returns. The grader
//     allocates M, N and P, copies data, synchronises, checks for errors and times the call.
//   * M and N are read-only. P arrives holding garbage: write every one of its elements.
//   * Launchers may call cudaMalloc/cudaFree (scratch), cudaMemcpy, cudaMemset,
//     cudaGetDevice, cudaGetDeviceProperties, cudaDeviceGetAttribute, cudaFuncSetAttribute,
//     cudaOccupancy*, cudaGetLastError. They may NOT create streams, events or graphs, use
//     asynchronous copies or host/managed memory, or touch files, processes, sockets, the
//     environment or clocks: a submission that does is graded `forbidden`.
//   * Keep the launcher names and signatures exactly as they are (extern "C", same types).
//
// Check your work without a GPU: `cugrade check matmul .` in the folder holding this file.

#include <cuda_runtime.h>

// ---------------------------------------------------------------------------------------------
// matmul_naive: one thread per element of P.
// ---------------------------------------------------------------------------------------------

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int j, int k, int l) {
  // TODO: compute this thread's row (from the y indices) and column (from the x indices).
  // TODO: the grid is rounded up to whole blocks, so threads with row >= j or col >= l must do
  //       nothing at all (no loads, no stores).
  // TODO: P[row * l + col] = sum over e in [0, k) of M[row * k + e] * N[e * l + col],
  //       accumulated in a float register and stored once.
}

extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l) {
  const dim3 block(16, 16);
  // TODO: enough blocks to cover all l columns (x) and j rows (y); round the division up.
  const dim3 grid(1, 1);
  matmul_naive_kernel<<<grid, block>>>(M, N, P, j, k, l);
}

// ---------------------------------------------------------------------------------------------
// matmul_tiled: statically sized __shared__ tiles.
// ---------------------------------------------------------------------------------------------

#define TILE_WIDTH 16

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int j, int k, int l) {
  // TODO: declare the two tiles here:
  //         __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  //         __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  // TODO: loop over the ceil(k / TILE_WIDTH) phases. In each phase every thread of the block
  //       loads one element of M's tile and one of N's tile, writing 0.0f where the tile hangs
  //       over the edge of M or N (k is not a multiple of TILE_WIDTH, and neither are j and l).
  //       Threads outside P still load: their neighbours need those elements.
  // TODO: __syncthreads() after loading (no one reads a tile before it is complete) and again
  //       after using it (no one overwrites a tile that others still read). Every thread of the
  //       block must reach both barriers: do not return early before the loop ends.
  // TODO: after the last phase, only threads inside P (row < j, col < l) store their sum.
}

extern "C" void matmul_tiled(const float* M, const float* N, float* P, int j, int k, int l) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  // TODO: one block per TILE_WIDTH x TILE_WIDTH tile of P, rounding up in both directions.
  const dim3 grid(1, 1);
  matmul_tiled_kernel<<<grid, block>>>(M, N, P, j, k, l);
}

// ---------------------------------------------------------------------------------------------
// matmul_dynamic: tile width chosen at run time, tiles in dynamic (extern) shared memory.
// ---------------------------------------------------------------------------------------------

__global__ void matmul_dynamic_kernel(const float* M, const float* N, float* P, int j, int k,
                                      int l, int tile_width) {
  // One dynamic allocation holds both tiles: Mds is tiles[0 .. tile_width^2), Nds follows it.
  extern __shared__ float tiles[];
  // TODO: the same algorithm as matmul_tiled, indexing the flat arrays by hand:
  //         Mds[ty][tx] -> tiles[ty * tile_width + tx]
  //         Nds[ty][tx] -> tiles[tile_width * tile_width + ty * tile_width + tx]
}

extern "C" void matmul_dynamic(const float* M, const float* N, float* P, int j, int k, int l) {
  // TODO: ask the device what it allows, e.g.
  //         int device = 0;
  //         cudaGetDevice(&device);
  //         int max_shared = 0, max_threads = 0;
  //         cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlock, device);
  //         cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, device);
  //       and choose the largest tile width whose block (tile_width^2 threads) and two tiles
  //       (2 * tile_width^2 floats) fit.
  const int tile_width = 16;
  const size_t shared_bytes = 2 * tile_width * tile_width * sizeof(float);
  const dim3 block(tile_width, tile_width);
  // TODO: one block per tile of P, rounding up.
  const dim3 grid(1, 1);
  matmul_dynamic_kernel<<<grid, block, shared_bytes>>>(M, N, P, j, k, l, tile_width);
}
