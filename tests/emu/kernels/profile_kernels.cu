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
