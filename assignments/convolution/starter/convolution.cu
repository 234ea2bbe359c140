// convolution.cu: your solution to the `convolution` assignment. Read README.md (next to this
// file) first.
//
// The contract the grader relies on:
//   * N is a height x width image of floats, row-major (height, width >= 1; not multiples of
//     your tile width: expect 1 x 1, 17 x 33, 100 x 1). F is the (2r+1) x (2r+1) mask,
//     row-major, with r = 1, 2 or 3. P is height x width like N.
//   * P[i][j] = sum over a, b in [0, 2r] of F[a][b] * N[i - r + a][j - r + b], where an element
//     of N outside the image (a ghost cell) counts as 0. Never read a ghost cell from N: it is
//     outside the buffer.
//   * P ARRIVES HOLDING GARBAGE: write every element of it, and nothing outside it.
//   * Each launcher below receives DEVICE pointers (F too). It launches your kernel(s) on the
//     default stream, with the grid, block and shared memory you choose, and returns. The
//     grader allocates N, F and P, copies data, synchronises, checks for errors and times the
//     call.
//   * N and F are read-only.
//   * Launchers may call cudaMemcpyToSymbol (F is on the device: cudaMemcpyDeviceToDevice),
//     cudaMalloc/cudaFree, cudaMemcpy, cudaMemset, cudaGetDevice, cudaGetDeviceProperties,
//     cudaDeviceGetAttribute, cudaFuncSetAttribute, cudaOccupancy*, cudaGetLastError. They may
//     NOT create streams, events or graphs, use asynchronous copies or host/managed memory, or
//     touch files, processes, sockets, the environment or clocks: a submission that does is
//     graded `forbidden`.
//   * Keep the launcher names and signatures exactly as they are (extern "C", same types).
//
// Check your work without a GPU: `cugrade check convolution .` in the folder holding this file.

#include <cuda_runtime.h>

#define MAX_MASK_RADIUS 3
#define MAX_MASK_WIDTH (2 * MAX_MASK_RADIUS + 1)
#define O_TILE_WIDTH 16

// The mask, in constant memory, sized for the largest mask (r = 3).
__constant__ float M_c[MAX_MASK_WIDTH * MAX_MASK_WIDTH];

// ---------------------------------------------------------------------------------------------
// convolution_naive: one thread per element of P; each thread reads its whole window of N and
// the mask F from global memory.
// ---------------------------------------------------------------------------------------------

__global__ void convolution_naive_kernel(const float* N, const float* F, float* P, int height,
                                         int width, int r) {
  // TODO: row and col of this thread's element of P; threads outside P do nothing.
  // TODO: sum F[a * (2r+1) + b] * N[(row - r + a) * width + (col - r + b)] over a, b in [0, 2r],
  //       skipping (never reading) the elements of N outside the image.
  // TODO: store the sum in P[row * width + col].
}

extern "C" void convolution_naive(const float* N, const float* F, float* P, int height, int width, int r) {
  // TODO: a 2-D grid of 2-D blocks that covers all of P (round up).
  convolution_naive_kernel<<<1, 1>>>(N, F, P, height, width, r);
}

// ---------------------------------------------------------------------------------------------
// convolution_tiled: the mask in __constant__ memory, and each block's input tile (its output
// tile plus r halo cells on every side) loaded into shared memory once.
// ---------------------------------------------------------------------------------------------

__global__ void convolution_tiled_kernel(const float* N, float* P, int height, int width, int r) {
  // TODO: __shared__ float N_ds[O_TILE_WIDTH + 2 * MAX_MASK_RADIUS][O_TILE_WIDTH + 2 * MAX_MASK_RADIUS];
  // TODO: load the (O_TILE_WIDTH + 2r) x (O_TILE_WIDTH + 2r) input tile, halo cells included,
  //       writing 0.0f for ghost cells outside the image.
  // TODO: __syncthreads();   <- every thread, whatever its element
  // TODO: threads inside P sum M_c[a * (2r+1) + b] * N_ds[..][..] and store their element.
}

extern "C" void convolution_tiled(const float* N, const float* F, float* P, int height, int width, int r) {
  // TODO: cudaMemcpyToSymbol(M_c, F, (2r+1) * (2r+1) * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  // TODO: a grid of output tiles that covers all of P.
  convolution_tiled_kernel<<<1, 1>>>(N, P, height, width, r);
}
