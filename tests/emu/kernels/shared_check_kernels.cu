// Kernels for the shared-memory hazard detector and the __shared__ bounds: each races (or not),
// or steps outside its array, in one marked line.
#include <cuda_runtime.h>

// The last tree step writes partial[0]; every thread reads it with no barrier between.
__global__ void last_step_race(const float* in, float* out) {
  __shared__ float partial[256];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * 256 + t];
  for (unsigned stride = 128; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < stride) {
      partial[t] += partial[t + stride]; // LINE:tree_write
    }
  }
  out[blockIdx.x * 256 + t] = partial[0]; // LINE:tree_read
}

// The same with the barrier: no hazard.
__global__ void last_step_synced(const float* in, float* out) {
  __shared__ float partial[256];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * 256 + t];
  for (unsigned stride = 128; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
  }
  __syncthreads();
  out[blockIdx.x * 256 + t] = partial[0];
}

// Lanes of one warp read what another lane wrote, with no barrier (racecheck: a WARNING, not an
// error): not reported.
__global__ void warp_local_exchange(float* out) {
  __shared__ float lane_values[32];
  const unsigned t = threadIdx.x;
  lane_values[t] = static_cast<float>(t);
  __syncwarp();
  out[t] = lane_values[(t + 1) % 32];
}

// Every thread stores the same value in one flag (racecheck: INFO): not reported.
__global__ void same_value_flag(int* out) {
  __shared__ int done;
  done = 0;
  __syncthreads();
  out[threadIdx.x] = done;
}

// Threads of every warp count into shared bins with atomicAdd, then (after a barrier) read them:
// atomics never race with each other.
__global__ void atomic_bins(const unsigned char* data, unsigned int* bins) {
  __shared__ unsigned int local[16];
  const unsigned t = threadIdx.x;
  if (t < 16) {
    local[t] = 0;
  }
  __syncthreads();
  atomicAdd(&local[data[t] % 16], 1u);
  __syncthreads();
  if (t < 16) {
    atomicAdd(&bins[t], local[t]);
  }
}

// The same without the second barrier: a plain read of a bin another warp updates atomically.
__global__ void atomic_then_read(const unsigned char* data, unsigned int* bins) {
  __shared__ unsigned int local[16];
  const unsigned t = threadIdx.x;
  if (t < 16) {
    local[t] = 0;
  }
  __syncthreads();
  atomicAdd(&local[data[t] % 16], 1u); // LINE:atomic_update
  if (t < 16) {
    bins[t] = local[t]; // LINE:plain_read
  }
}

// Dynamic shared memory, written through a pointer a __device__ function receives.
__device__ void store_at(float* buffer, unsigned i, float v) {
  buffer[i] = v; // LINE:device_store
}

__global__ void dynamic_neighbour_race(float* out) {
  extern __shared__ float cells[];
  const unsigned t = threadIdx.x;
  store_at(cells, t, static_cast<float>(t) + 1.0f);
  out[t] = cells[(t + 32) % blockDim.x]; // LINE:dynamic_read
}

// Only the last block of a large grid races: every block that would race is checked.
__global__ void race_in_last_block(float* out) {
  __shared__ float value[64];
  const unsigned t = threadIdx.x;
  value[t] = static_cast<float>(t);
  if (blockIdx.x + 1 == gridDim.x) {
    out[t] = value[63 - t];
  } else {
    __syncthreads();
    out[blockIdx.x * 64 + t] = value[63 - t];
  }
}

// Writes T[1024] of a 1024-element array: thread 512 of a 513-thread block.
__global__ void past_the_end(float* out) {
  __shared__ float T[1024];
  const unsigned t = threadIdx.x;
  T[t] = 1.0f;
  T[t + 512] = 2.0f; // LINE:past_end
  __syncthreads();
  out[t] = T[t];
}

// Reads Mds[16][0] of a 16 x 16 tile.
__global__ void tile_row_past_end(float* out) {
  __shared__ float Mds[16][16];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  Mds[ty][tx] = 1.0f;
  __syncthreads();
  out[ty * 16 + tx] = Mds[ty + 1][tx]; // LINE:tile_past_end
}

// Reads s[-1] of dynamic shared memory.
__global__ void dynamic_below_start(float* out) {
  extern __shared__ float s[];
  const int t = threadIdx.x;
  s[t] = 1.0f;
  __syncthreads();
  out[t] = s[t - 1]; // LINE:below_start
}

// Writes one element past the launch's dynamic shared memory.
__global__ void dynamic_past_end(float* out, int count) {
  extern __shared__ float s[];
  const int t = threadIdx.x;
  s[t] = 1.0f;
  if (t == 0) {
    s[count] = 2.0f; // LINE:dynamic_past_end
  }
  __syncthreads();
  out[t] = s[t];
}

// One thread of the second warp writes s[0] before the barrier; no other thread touches it.
__global__ void second_warp_writes_first(float* out) {
  extern __shared__ float s[];
  if (threadIdx.x == 32) {
    s[0] = 3.0f;
  }
  __syncthreads();
  out[threadIdx.x] = s[0];
}

// Every thread returns at once: the cheap path for grids far larger than the data.
__global__ void returns_at_once(float* out, int n) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) {
    out[i] = 1.0f;
  }
}

// Never ends.
__global__ void spin_forever(volatile int* flag) {
  while (*flag == 0) {
  }
}

extern "C" {
void run_last_step_race(const float* in, float* out, int blocks) {
  last_step_race<<<blocks, 256>>>(in, out);
}
void run_last_step_synced(const float* in, float* out, int blocks) {
  last_step_synced<<<blocks, 256>>>(in, out);
}
void run_warp_local_exchange(float* out) {
  warp_local_exchange<<<1, 32>>>(out);
}
void run_same_value_flag(int* out) {
  same_value_flag<<<2, 128>>>(out);
}
void run_atomic_bins(const unsigned char* data, unsigned int* bins) {
  atomic_bins<<<1, 256>>>(data, bins);
}
void run_atomic_then_read(const unsigned char* data, unsigned int* bins) {
  atomic_then_read<<<1, 256>>>(data, bins);
}
void run_dynamic_neighbour_race(float* out) {
  dynamic_neighbour_race<<<1, 128, 128 * sizeof(float)>>>(out);
}
void run_race_in_last_block(float* out, int blocks) {
  race_in_last_block<<<blocks, 64>>>(out);
}
void run_past_the_end(float* out) {
  past_the_end<<<4, 513>>>(out);
}
void run_tile_row_past_end(float* out) {
  tile_row_past_end<<<dim3(2, 2), dim3(16, 16)>>>(out);
}
void run_dynamic_below_start(float* out) {
  dynamic_below_start<<<1, 64, 64 * sizeof(float)>>>(out);
}
void run_dynamic_past_end(float* out, int count) {
  dynamic_past_end<<<1, 32, count * sizeof(float)>>>(out, count);
}
void run_second_warp_writes_first(float* out, int count) {
  second_warp_writes_first<<<1, 64, count * sizeof(float)>>>(out);
}
void run_returns_at_once(float* out, unsigned blocks, unsigned threads) {
  returns_at_once<<<blocks, threads>>>(out, 0);
}
void run_spin_forever(volatile int* flag) {
  spin_forever<<<1, 1>>>(flag);
}
}
