// Kernels whose memory requests have known costs, for the warp profiler: each access is on a
// marked line, and the test states what a GPU's load/store unit needs for it.
#include <cuda_runtime.h>

// Consecutive threads read consecutive floats: 4 sectors per request.
__global__ void coalesced_copy(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i]; // LINE:coalesced
  }
}

// Thread t reads in[t * 32]: every lane its own sector.
__global__ void strided_read(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i * 32]; // LINE:strided
  }
}

// Lane t reads column 0 of row t of a 32 x 32 tile: 32 words in one bank, 32 wavefronts.
__global__ void column_of_tile(float* out) {
  __shared__ float tile[32][32];
  const int t = threadIdx.x;
  for (int c = 0; c < 32; ++c) {
    tile[t][c] = static_cast<float>(t * 32 + c); // LINE:tile_rows
  }
  __syncthreads();
  out[t] = tile[t][0]; // LINE:tile_column
}

// The same tile padded to 33 columns: conflict-free.
__global__ void column_of_padded_tile(float* out) {
  __shared__ float tile[32][33];
  const int t = threadIdx.x;
  for (int c = 0; c < 32; ++c) {
    tile[t][c] = static_cast<float>(t * 32 + c);
  }
  __syncthreads();
  out[t] = tile[t][0]; // LINE:padded_column
}

// Every thread adds 1 to one global counter.
__global__ void count_all(unsigned* counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(counter, 1u); // LINE:global_atomic
  }
}

// A thread's own array is not global memory.
__global__ void local_array(float* out) {
  float own[4];
  for (int k = 0; k < 4; ++k) {
    own[k] = static_cast<float>(k);
  }
  out[threadIdx.x] = own[threadIdx.x % 4]; // LINE:local_array
}

// 16-byte reads, served a half-warp at a time (an H200's LDS.128): lanes 0-15 read one piece
// and lanes 16-31 another, in different banks: 2 wavefronts (one per half-warp), where 4-byte
// reads of the same words would take 1.
__global__ void float4_halves(float* out) {
  __shared__ float4 rows[2][4];
  const unsigned t = threadIdx.x;
  if (t < 8) {
    rows[t / 4][t % 4] = make_float4(t, t, t, t);
  }
  __syncthreads();
  const float4 v = rows[t / 16][0]; // LINE:float4_halves
  out[t] = v.x + v.w;
}

// Lane t reads the first piece of row t % 16 of a 16 x 64-byte tile (a transposed tile read
// with LDS.128): in each half-warp 8 pieces share each bank group, 8 wavefronts, and the second
// half-warp reads the same pieces again: 16.
__global__ void float4_column(float* out) {
  __shared__ float4 tile[16][4];
  const unsigned t = threadIdx.x;
  if (t < 16) {
    for (int c = 0; c < 4; ++c) {
      tile[t][c] = make_float4(t, c, t, c);
    }
  }
  __syncthreads();
  const float4 v = tile[t % 16][0]; // LINE:float4_column
  out[t] = v.x + v.y;
}

// A 1-D stencil in the textbook's basic form: each lane sums the in-range elements of a window
// of 4, so the lanes near the end skip loads the others make, then stores its sum. On a GPU the
// store is one instruction of the warp: one request of 4 sectors, however many loads each lane
// skipped before it.
__global__ void guarded_window_then_store(const float* in, float* out, int n) {
  const int i = static_cast<int>(threadIdx.x);
  float sum = 0.0f;
  for (int k = 0; k < 4; ++k) {
    if (i + k < n) {
      sum += in[i + k];
    }
  }
  out[i] = sum; // LINE:window_store
}

// The tiled matmul's inner product over a 16 x 16 tile, for one warp (tx 0-15, ty 0-1). nvcc
// unrolls the loop and loads Mds[ty][k..k+3] with one LDS.128 (2 wavefronts: a half-warp reads
// one 16-byte piece), Nds[k][tx] with four LDS.32 (1 wavefront each): per 4 steps of k,
// 5 requests and 6 wavefronts, as Nsight Compute counts the reference's.
__global__ void tile_product(float* out) {
  __shared__ float Mds[16][16];
  __shared__ float Nds[16][16];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  for (unsigned r = ty; r < 16; r += 2) {
    Mds[r][tx] = static_cast<float>(r + tx);
    Nds[r][tx] = static_cast<float>(r * tx);
  }
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < 16; ++k) {
    sum += Mds[ty][k] * Nds[k][tx]; // LINE:tile_product
  }
  out[ty * 16 + tx] = sum;
}

// The same product in dynamic shared memory with the tile's width a parameter: nvcc cannot prove
// the alignment a wide load needs, so every load is an LDS.32.
__global__ void dynamic_tile_product(float* out, int width) {
  extern __shared__ float tiles[];
  float* Mds = tiles;
  float* Nds = tiles + width * width;
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  for (unsigned r = ty; r < static_cast<unsigned>(width); r += 2) {
    Mds[r * width + tx] = static_cast<float>(r + tx);
    Nds[r * width + tx] = static_cast<float>(r * tx);
  }
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < width; ++k) {
    sum += Mds[ty * width + k] * Nds[k * width + tx]; // LINE:dynamic_tile_product
  }
  out[ty * width + tx] = sum;
}

// A window of 4 starting at each lane's own column (a convolution's `N_ds[ty][tx + j]`): the
// lanes start at every word, so no wide load is aligned for all of them; four LDS.32.
__global__ void shifted_window(float* out) {
  __shared__ float rows[2][20];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  rows[ty][tx] = static_cast<float>(tx);
  if (tx < 4) {
    rows[ty][16 + tx] = 0.0f;
  }
  __syncthreads();
  float sum = 0.0f;
  for (int j = 0; j < 4; ++j) {
    sum += rows[ty][tx + j]; // LINE:shifted_window
  }
  out[ty * 16 + tx] = sum;
}

extern "C" void run_tile_product(float* out) {
  tile_product<<<1, dim3(16, 2)>>>(out);
}
extern "C" void run_dynamic_tile_product(float* out) {
  dynamic_tile_product<<<1, dim3(16, 2), 2 * 16 * 16 * sizeof(float)>>>(out, 16);
}
extern "C" void run_shifted_window(float* out) {
  shifted_window<<<1, dim3(16, 2)>>>(out);
}
extern "C" void run_guarded_window_then_store(const float* in, float* out, int n) {
  guarded_window_then_store<<<1, 32>>>(in, out, n);
}
extern "C" void run_float4_halves(float* out) {
  float4_halves<<<1, 32>>>(out);
}
extern "C" void run_float4_column(float* out) {
  float4_column<<<1, 32>>>(out);
}
extern "C" void run_coalesced_copy(const float* in, float* out, int n) {
  coalesced_copy<<<(n + 255) / 256, 256>>>(in, out, n);
}
extern "C" void run_strided_read(const float* in, float* out, int n) {
  strided_read<<<(n + 255) / 256, 256>>>(in, out, n);
}
extern "C" void run_column_of_tile(float* out) {
  column_of_tile<<<1, 32>>>(out);
}
extern "C" void run_column_of_padded_tile(float* out) {
  column_of_padded_tile<<<1, 32>>>(out);
}
extern "C" void run_count_all(unsigned* counter, int n) {
  count_all<<<(n + 255) / 256, 256>>>(counter, n);
}
extern "C" void run_local_array(float* out) {
  local_array<<<1, 64>>>(out);
}
