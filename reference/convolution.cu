// Reference solution for the `convolution` assignment: P = N convolved with the mask F, in 2-D.
// N and P are height x width images (row-major), F is (2r + 1) x (2r + 1) (row-major, r from 1
// to 3), and P[i][j] = sum over a, b in [0, 2r] of F[a][b] * N[i - r + a][j - r + b], where an
// element of N outside the image (a ghost cell) counts as 0.
//
// Both kernels give each thread one element of P in 16 x 16 blocks, so any height and width
// work: the grid rounds up, and the threads past the edge compute nothing.

#include <cuda_runtime.h>

namespace {

constexpr int tile_width = 16; // output elements per block side
constexpr int max_radius = 3;
constexpr int max_mask_width = 2 * max_radius + 1;

// Lesson: constant memory. The mask is small, read by every thread and never written by a
// kernel: in __constant__ memory, one read serves a whole warp that reads the same entry (as all
// threads do at each step of the loops below), from a cache of its own, without global traffic.
// Its size is fixed when the program is compiled, so it is declared for the largest mask.
__constant__ float mask_c[max_mask_width * max_mask_width];

// Lesson: the basic convolution. Each thread reads the whole (2r + 1)^2 window around its
// element from global memory: neighbouring threads read the same elements of N again and again
// (about (2r + 1)^2 reads per element of N), and the mask F comes from global memory too.
// Ghost cells are skipped, which is the same as adding 0.
__global__ void convolution_naive_kernel(const float* N, const float* F, float* P, int height,
                                         int width, int r) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= height || col >= width) {
    return; // no barrier below: these threads may leave
  }
  const int mask_width = 2 * r + 1;
  float sum = 0.0f;
  for (int a = 0; a < mask_width; ++a) {
    const int in_row = row - r + a;
    for (int b = 0; b < mask_width; ++b) {
      const int in_col = col - r + b;
      if (in_row >= 0 && in_row < height && in_col >= 0 && in_col < width) {
        const float pixel = N[in_row * width + in_col];
        sum += F[a * mask_width + b] * pixel;
      }
    }
  }
  P[row * width + col] = sum;
}

// Lesson: tiling with halo cells. A block computes a 16 x 16 output tile, which needs the
// (16 + 2r) x (16 + 2r) input tile around it: the output tile's own elements plus r halo cells
// on every side, which neighbouring blocks also load. The block's 256 threads load that input
// tile into shared memory together (a thread loads up to four elements, in steps of 16 rows and
// 16 columns), writing 0 for ghost cells outside the image instead of reading them. Then every
// thread computes its element from shared memory and the constant-memory mask alone: each
// element of N is read from global memory about (1 + 2r/16)^2 times instead of (2r + 1)^2.
// The one barrier sits between loading and computing (every element a thread reads was loaded
// by some other thread), outside any branch, so every thread of the block reaches it; a block
// computes one tile, so no second barrier is needed before the tile is overwritten.
// Lesson: shared-memory banks. A warp is two rows of 16 threads, which read two rows of N_ds at
// once. Rows 22 floats apart would put six of the second row's words in the banks of the
// first's (2-way conflicts); rows 48 floats apart (16 more than a multiple of the 32 banks) put
// the two halves of the warp in the two halves of the banks.
constexpr int tile_row_stride = 3 * tile_width;
static_assert(tile_row_stride >= tile_width + 2 * max_radius && tile_row_stride % 32 == 16);

__global__ void convolution_tiled_kernel(const float* N, float* P, int height, int width, int r) {
  __shared__ float N_ds[tile_width + 2 * max_radius][tile_row_stride];
  const int in_tile = tile_width + 2 * r;
  const int tile_row = blockIdx.y * tile_width - r; // the input tile's first row and column
  const int tile_col = blockIdx.x * tile_width - r;
  for (int y = threadIdx.y; y < in_tile; y += tile_width) {
    for (int x = threadIdx.x; x < in_tile; x += tile_width) {
      const int in_row = tile_row + y;
      const int in_col = tile_col + x;
      const bool inside = in_row >= 0 && in_row < height && in_col >= 0 && in_col < width;
      N_ds[y][x] = inside ? N[in_row * width + in_col] : 0.0f;
    }
  }
  __syncthreads(); // the whole input tile is loaded before anyone reads a neighbour's element

  const int row = blockIdx.y * tile_width + threadIdx.y;
  const int col = blockIdx.x * tile_width + threadIdx.x;
  if (row < height && col < width) {
    const int mask_width = 2 * r + 1;
    float sum = 0.0f;
    for (int a = 0; a < mask_width; ++a) {
      for (int b = 0; b < mask_width; ++b) {
        sum += mask_c[a * mask_width + b] * N_ds[threadIdx.y + a][threadIdx.x + b];
      }
    }
    P[row * width + col] = sum;
  }
}

dim3 grid_for(int height, int width) {
  return dim3((width + tile_width - 1) / tile_width, (height + tile_width - 1) / tile_width);
}

} // namespace

extern "C" void convolution_naive(const float* N, const float* F, float* P, int height, int width, int r) {
  convolution_naive_kernel<<<grid_for(height, width), dim3(tile_width, tile_width)>>>(
      N, F, P, height, width, r);
}

extern "C" void convolution_tiled(const float* N, const float* F, float* P, int height, int width, int r) {
  // F is a device pointer: a device-to-device copy into the constant mask, ordered on the
  // default stream before the kernel that reads it.
  const int mask_width = 2 * r + 1;
  cudaMemcpyToSymbol(mask_c, F, mask_width * mask_width * sizeof(float), 0,
                     cudaMemcpyDeviceToDevice);
  convolution_tiled_kernel<<<grid_for(height, width), dim3(tile_width, tile_width)>>>(
      N, P, height, width, r);
}
