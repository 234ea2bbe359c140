// Faults a GPU stops a launch on that no bounds check sees: a failed assert() in device code, and
// a load or store at an address that is not a multiple of its type's size. And the occupancy API
// a launcher may size its blocks with.
#include <cassert>
#include <cuda_runtime.h>

__global__ void assert_below(const int* values, int n, int limit, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(values[i] < limit); // LINE:assert_below
    out[i] = values[i];
  }
}

// Sums float4s read from `in + offset` (offset in floats), one per thread.
__global__ void sum_float4(const float* in, int offset, int count, float* out) {
  const float4* v = reinterpret_cast<const float4*>(in + offset);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    const float4 q = v[i]; // LINE:float4_load
    out[i] = q.x + q.y + q.z + q.w;
  }
}

__global__ void sum_float4_ldg(const float* in, int offset, int count, float* out) {
  const float4* v = reinterpret_cast<const float4*>(in + offset);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    const float4 q = __ldg(v + i);
    out[i] = q.x + q.y + q.z + q.w;
  }
}

// Four bytes at once from a byte buffer, as histogram kernels sometimes read their input.
__global__ void words_of_bytes(const unsigned char* in, int byte_offset, int words,
                               unsigned* out) {
  const unsigned* w = reinterpret_cast<const unsigned*>(in + byte_offset);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < words) {
    out[i] = w[i]; // LINE:word_load
  }
}

__global__ void with_shared(float* out) {
  extern __shared__ float tile[];
  tile[threadIdx.x] = 1.0f;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

extern "C" void run_assert_below(const int* values, int n, int limit, int* out) {
  assert_below<<<(n + 127) / 128, 128>>>(values, n, limit, out);
}

extern "C" void run_sum_float4(const float* in, int offset, int count, float* out) {
  sum_float4<<<(count + 63) / 64, 64>>>(in, offset, count, out);
}

extern "C" void run_sum_float4_ldg(const float* in, int offset, int count, float* out) {
  sum_float4_ldg<<<(count + 63) / 64, 64>>>(in, offset, count, out);
}

extern "C" void run_words_of_bytes(const unsigned char* in, int byte_offset, int words,
                                   unsigned* out) {
  words_of_bytes<<<(words + 63) / 64, 64>>>(in, byte_offset, words, out);
}

// out: block size and minimum grid, without a limit, with a limit of 200 threads, and with 24 KiB
// of dynamic shared memory per block.
extern "C" void run_potential_block_sizes(int* out) {
  cudaOccupancyMaxPotentialBlockSize(&out[1], &out[0], with_shared);
  cudaOccupancyMaxPotentialBlockSize(&out[3], &out[2], with_shared, 0, 200);
  cudaOccupancyMaxPotentialBlockSizeVariableSMem(&out[5], &out[4], with_shared,
                                                 [](int) { return 24 * 1024; });
}

extern "C" void run_blocks_per_multiprocessor(int block_size, int shared_bytes, int* out) {
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(out, with_shared, block_size,
                                                static_cast<size_t>(shared_bytes));
}
