// Warp primitives with 32-lane semantics.
#include <cuda_runtime.h>

// Block sum by warp shuffles: each warp reduces with __shfl_down_sync, lane 0 adds to the total.
__global__ void shuffle_sum(const float* in, int n, float* total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(total, v);
  }
}

// Records what each lane gets from every shuffle flavour (with and without width).
__global__ void shuffle_table(int* out) {
  const int lane = threadIdx.x & 31;
  const int v = 100 + lane;
  int* r = out + threadIdx.x * 8;
  r[0] = __shfl_sync(0xffffffffu, v, 3);
  r[1] = __shfl_sync(0xffffffffu, v, lane + 1, 8);
  r[2] = __shfl_up_sync(0xffffffffu, v, 2);
  r[3] = __shfl_up_sync(0xffffffffu, v, 1, 4);
  r[4] = __shfl_down_sync(0xffffffffu, v, 3);
  r[5] = __shfl_down_sync(0xffffffffu, v, 1, 16);
  r[6] = __shfl_xor_sync(0xffffffffu, v, 1);
  r[7] = __shfl_xor_sync(0xffffffffu, v, 8, 8);
}

__global__ void votes(unsigned* out) {
  const int lane = threadIdx.x & 31;
  unsigned* r = out + threadIdx.x * 5;
  r[0] = __ballot_sync(0xffffffffu, lane % 3 == 0);
  r[1] = __any_sync(0xffffffffu, lane == 17);
  r[2] = __all_sync(0xffffffffu, lane < 32);
  r[3] = __all_sync(0xffffffffu, lane < 31);
  __syncwarp();
  r[4] = __activemask();
}

// A double shuffle of a 64-bit value and a warp-level reduction intrinsic.
__global__ void wide_values(double* out, unsigned* sums) {
  const int lane = threadIdx.x & 31;
  out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, 1.0e12 + lane, 31);
  sums[threadIdx.x] = __reduce_add_sync(0xffffffffu, static_cast<unsigned>(lane));
}

// Every warp reduction intrinsic over lanes 0-23 (mask 0x00ffffff), on values that mix signs
// (lane - 10) and bits (1 << lane % 8), and a second rendezvous where lanes 24-31 reduce alone.
__global__ void reductions(unsigned* out) {
  const int lane = threadIdx.x & 31;
  unsigned* r = out + 8 * lane;
  if (lane < 24) {
    const int v = lane - 10;
    r[0] = __reduce_add_sync(0x00ffffffu, static_cast<unsigned>(v));
    r[1] = __reduce_min_sync(0x00ffffffu, static_cast<unsigned>(v)); // -1 as unsigned is largest
    r[2] = static_cast<unsigned>(__reduce_min_sync(0x00ffffffu, v));
    r[3] = __reduce_max_sync(0x00ffffffu, static_cast<unsigned>(v));
    r[4] = static_cast<unsigned>(__reduce_max_sync(0x00ffffffu, v));
    r[5] = __reduce_and_sync(0x00ffffffu, 0xf0u | 1u << lane % 8);
    r[6] = __reduce_or_sync(0x00ffffffu, 1u << lane % 8);
    r[7] = __reduce_xor_sync(0x00ffffffu, 1u << lane % 8);
  } else {
    r[0] = __reduce_add_sync(0xff000000u, static_cast<unsigned>(lane));
  }
}

// Half the warp shuffles with a full mask: lanes 16-31 never arrive (they wait at the barrier).
__global__ void divergent_shuffle(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16) {
    v = __shfl_down_sync(0xffffffffu, v, 1); // LINE:divergent_shuffle
  }
  __syncthreads();
  out[threadIdx.x] = v;
}

// Warp-synchronous code as the reduction slides teach it: a tree with barriers down to 64 sums,
// then the first warp finishes through a volatile pointer with no __syncwarp(). (The slides write
// `s[t] += s[t + 32]`, which C++20 warns about for a volatile operand; the fixture
// parity_volatile_last_warp has that form.)
__device__ void last_warp(volatile int* s, unsigned t) {
  s[t] = s[t] + s[t + 32];
  s[t] = s[t] + s[t + 16];
  s[t] = s[t] + s[t + 8];
  s[t] = s[t] + s[t + 4];
  s[t] = s[t] + s[t + 2];
  s[t] = s[t] + s[t + 1];
}

__global__ void volatile_last_warp(const int* in, int* out) {
  __shared__ int s[256];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned stride = 128; stride > 32; stride >>= 1) {
    if (t < stride) {
      s[t] += s[t + stride];
    }
    __syncthreads();
  }
  if (t < 32) {
    last_warp(s, t);
  }
  if (t == 0) {
    out[blockIdx.x] = s[0];
  }
}

// Only the lanes below 16 step; the others of their warp wait at the barrier meanwhile. Each
// stepping lane then reads what its neighbour held before the step (a shift in place).
__global__ void volatile_half_warp(int* out) {
  __shared__ int s[33];
  volatile int* v = s;
  const unsigned t = threadIdx.x;
  s[t] = static_cast<int>(t);
  if (t == 0) {
    s[32] = 32;
  }
  __syncthreads();
  if (t < 16) {
    const int next = v[t + 1];
    v[t] = next;
  }
  __syncthreads();
  out[t] = s[t];
}

// Lane 1 spins (with __nanosleep) until lane 0 sets a flag, which lane 0 does only after a
// volatile step that lane 1, spinning, never reaches: the step must go on without the spinner.
__global__ void step_beside_spin(int* out) {
  __shared__ int s[32];
  __shared__ int flag;
  volatile int* v = s;
  const unsigned t = threadIdx.x;
  if (t == 0) {
    flag = 0;
  }
  s[t] = static_cast<int>(t);
  __syncthreads();
  if (t == 1) {
    while (atomicAdd(&flag, 0) == 0) {
      __nanosleep(100);
    }
    out[t] = v[0];
  } else {
    v[t] = v[t] + 100;
    if (t == 0) {
      atomicExch(&flag, 1);
    }
    out[t] = v[t];
  }
}

extern "C" void run_step_beside_spin(int* out) {
  step_beside_spin<<<1, 32>>>(out);
}
extern "C" void run_volatile_last_warp(const int* in, int blocks, int* out) {
  volatile_last_warp<<<blocks, 256>>>(in, out);
}
extern "C" void run_volatile_half_warp(int* out) {
  volatile_half_warp<<<1, 32>>>(out);
}
extern "C" void run_shuffle_sum(const float* in, int n, float* total, int threads) {
  shuffle_sum<<<(n + threads - 1) / threads, threads>>>(in, n, total);
}
extern "C" void run_shuffle_table(int* out, int threads) {
  shuffle_table<<<1, threads>>>(out);
}
extern "C" void run_votes(unsigned* out, int threads) {
  votes<<<1, threads>>>(out);
}
extern "C" void run_wide(double* out, unsigned* sums) {
  wide_values<<<1, 32>>>(out, sums);
}
extern "C" void run_reductions(unsigned* out) {
  reductions<<<1, 32>>>(out);
}
extern "C" void run_divergent_shuffle(int* out) {
  divergent_shuffle<<<1, 32>>>(out);
}
