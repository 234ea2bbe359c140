// Reference solution for the `matmul` assignment: P = M * N, row-major, M is j x k, N is k x l.
//
// Written to the same contract as a student's submission (see
// assignments/matmul/starter/README.md): each launcher receives device pointers and sizes, launches
// its own kernel and returns. Grading this folder must give full marks; students' speedups are
// measured against these kernels. None of the sizes need be a multiple of the tile width, and j, k,
// l may all differ.

#include <cuda_runtime.h>

namespace {

constexpr int naive_block = 16;
constexpr int tile_width = 16;

__host__ __device__ int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

// Lesson: one thread per output element, and the boundary check. The grid is rounded up to whole
// blocks, so threads whose (row, col) falls outside P must do nothing. Adjacent threads (tx) read
// adjacent columns of N and write adjacent columns of P: those accesses coalesce.
__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int j, int k, int l) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < j && col < l) {
    float sum = 0.0f;
    for (int e = 0; e < k; ++e) {
      sum += M[row * k + e] * N[e * l + col];
    }
    P[row * l + col] = sum;
  }
}

// Lesson: tiling with shared memory and its two barriers. Each phase loads one TILE x TILE tile of
// M and one of N (every thread loads one element of each, coalesced along tx), then every thread
// uses the whole tile: global traffic drops by a factor of TILE.
// Threads outside P still take part in loading (their tile elements are needed by others) and load
// zeros where the tile hangs over the edge of M or N, so no size has to be a multiple of TILE.
__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int j, int k, int l) {
  __shared__ float Mds[tile_width][tile_width];
  __shared__ float Nds[tile_width][tile_width];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * tile_width + ty;
  const int col = blockIdx.x * tile_width + tx;

  float sum = 0.0f;
  for (int phase = 0; phase < ceil_div(k, tile_width); ++phase) {
    const int m_col = phase * tile_width + tx;
    const int n_row = phase * tile_width + ty;
    Mds[ty][tx] = (row < j && m_col < k) ? M[row * k + m_col] : 0.0f;
    Nds[ty][tx] = (n_row < k && col < l) ? N[n_row * l + col] : 0.0f;
    // Barrier 1 (read-after-write, a true dependence): no thread may read the tile before every
    // thread has written its element of it.
    __syncthreads();
    for (int e = 0; e < tile_width; ++e) {
      sum += Mds[ty][e] * Nds[e][tx];
    }
    // Barrier 2 (write-after-read, a false dependence): no thread may overwrite the tile with the
    // next phase's data while another thread is still reading this phase's.
    __syncthreads();
  }
  if (row < j && col < l) {
    P[row * l + col] = sum;
  }
}

// Lesson: sizing shared memory at run time. The tile width is a kernel argument, the two tiles
// live in one `extern __shared__` array sized at launch, and the launcher picks the widest tile
// the device's shared-memory limit and thread limit allow. Same two barriers as above.
__global__ void matmul_dynamic_kernel(const float* M, const float* N, float* P, int j, int k, int l,
                                      int tile) {
  extern __shared__ float tiles[];
  float* Mds = tiles;               // tile x tile, row-major
  float* Nds = tiles + tile * tile; // tile x tile, row-major

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * tile + ty;
  const int col = blockIdx.x * tile + tx;

  float sum = 0.0f;
  for (int phase = 0; phase < ceil_div(k, tile); ++phase) {
    const int m_col = phase * tile + tx;
    const int n_row = phase * tile + ty;
    Mds[ty * tile + tx] = (row < j && m_col < k) ? M[row * k + m_col] : 0.0f;
    Nds[ty * tile + tx] = (n_row < k && col < l) ? N[n_row * l + col] : 0.0f;
    __syncthreads(); // the tile is complete before anyone reads it
    for (int e = 0; e < tile; ++e) {
      sum += Mds[ty * tile + e] * Nds[e * tile + tx];
    }
    __syncthreads(); // everyone has finished reading before the next phase overwrites it
  }
  if (row < j && col < l) {
    P[row * l + col] = sum;
  }
}

// The widest square tile (32, 16 or 8) whose two float tiles fit in the per-block shared memory
// and whose threads fit in one block on this device.
int choose_tile_width() {
  int device = 0;
  cudaGetDevice(&device);
  int shared_per_block = 0;
  int threads_per_block = 0;
  cudaDeviceGetAttribute(&shared_per_block, cudaDevAttrMaxSharedMemoryPerBlock, device);
  cudaDeviceGetAttribute(&threads_per_block, cudaDevAttrMaxThreadsPerBlock, device);
  for (int tile = 32; tile > 8; tile /= 2) {
    const long bytes = 2L * tile * tile * static_cast<long>(sizeof(float));
    if (bytes <= shared_per_block && tile * tile <= threads_per_block) {
      return tile;
    }
  }
  return 8;
}

} // namespace

extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l) {
  const dim3 block(naive_block, naive_block);
  const dim3 grid(ceil_div(l, naive_block), ceil_div(j, naive_block));
  matmul_naive_kernel<<<grid, block>>>(M, N, P, j, k, l);
}

extern "C" void matmul_tiled(const float* M, const float* N, float* P, int j, int k, int l) {
  const dim3 block(tile_width, tile_width);
  const dim3 grid(ceil_div(l, tile_width), ceil_div(j, tile_width));
  matmul_tiled_kernel<<<grid, block>>>(M, N, P, j, k, l);
}

extern "C" void matmul_dynamic(const float* M, const float* N, float* P, int j, int k, int l) {
  const int tile = choose_tile_width();
  const size_t shared_bytes = 2 * static_cast<size_t>(tile) * tile * sizeof(float);
  const dim3 block(tile, tile);
  const dim3 grid(ceil_div(l, tile), ceil_div(j, tile));
  matmul_dynamic_kernel<<<grid, block, shared_bytes>>>(M, N, P, j, k, l, tile);
}
