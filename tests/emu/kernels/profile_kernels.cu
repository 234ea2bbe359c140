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
