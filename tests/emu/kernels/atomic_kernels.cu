// Every atomic function and type; results checked on the host against CUDA's definitions.
#include <cuda_runtime.h>

struct atomic_cells {
  int i[12];
  unsigned u[12];
  unsigned long long ull[8];
  float f[3];
  double d[1];
};

// One thread runs a fixed sequence so old values are predictable.
__global__ void sequence(atomic_cells* c, int* olds) {
  int k = 0;
  olds[k++] = atomicAdd(&c->i[0], 5);
  olds[k++] = atomicSub(&c->i[1], 3);
  olds[k++] = atomicExch(&c->i[2], 42);
  olds[k++] = atomicMin(&c->i[3], -7);
  olds[k++] = atomicMax(&c->i[4], 99);
  olds[k++] = atomicAnd(&c->i[5], 0x0F);
  olds[k++] = atomicOr(&c->i[6], 0x30);
  olds[k++] = atomicXor(&c->i[7], 0xFF);
  olds[k++] = atomicCAS(&c->i[8], 1, 2); // matches: 1 -> 2
  olds[k++] = atomicCAS(&c->i[9], 5, 6); // does not match
  olds[k++] = (int)atomicAdd(&c->u[0], 4u);
  olds[k++] = (int)atomicSub(&c->u[1], 1u);
  olds[k++] = (int)atomicExch(&c->u[2], 8u);
  olds[k++] = (int)atomicMin(&c->u[3], 2u);
  olds[k++] = (int)atomicMax(&c->u[4], 2u);
  olds[k++] = (int)atomicAnd(&c->u[5], 6u);
  olds[k++] = (int)atomicOr(&c->u[6], 6u);
  olds[k++] = (int)atomicXor(&c->u[7], 6u);
  olds[k++] = (int)atomicCAS(&c->u[8], 3u, 4u);
  olds[k++] = (int)atomicInc(&c->u[9], 2u);  // 2 >= 2: wraps to 0
  olds[k++] = (int)atomicDec(&c->u[10], 5u); // 0: becomes 5
  olds[k++] = (int)atomicDec(&c->u[11], 5u); // 9 > 5: becomes 5
  olds[k++] = (int)atomicAdd(&c->ull[0], 1ull << 40);
  olds[k++] = (int)atomicExch(&c->ull[1], 77ull);
  olds[k++] = (int)atomicCAS(&c->ull[2], 10ull, 11ull);
  olds[k++] = (int)atomicMin(&c->ull[3], 3ull);
  olds[k++] = (int)atomicMax(&c->ull[4], 3ull);
  olds[k++] = (int)atomicAnd(&c->ull[5], 12ull);
  olds[k++] = (int)atomicOr(&c->ull[6], 12ull);
  olds[k++] = (int)atomicXor(&c->ull[7], 12ull);
  olds[k++] = (int)atomicAdd(&c->f[0], 1.5f);
  olds[k++] = (int)atomicExch(&c->f[1], 2.5f);
  olds[k++] = (int)atomicAdd(&c->d[0], 0.25);
}

// Many threads of many blocks hammer single addresses, in global and in shared memory.
__global__ void contention(unsigned* counter, float* fsum, unsigned long long* big,
                           unsigned* shared_totals) {
  __shared__ unsigned local;
  if (threadIdx.x == 0) {
    local = 0;
  }
  __syncthreads();
  atomicAdd(counter, 1u);
  atomicAdd(fsum, 1.0f);
  atomicAdd(big, 3ull);
  atomicAdd(&local, 2u);
  atomicInc(counter + 1, 1000000u);
  __syncthreads();
  if (threadIdx.x == 0) {
    shared_totals[blockIdx.x] = local;
  }
}

// atomicInc as a ring counter: 100 threads incrementing modulo 7 leave 100 % 7.
__global__ void ring(unsigned* c) {
  atomicInc(c, 6u);
}

// A histogram's global atomics: every thread adds one to one of 16 bins, per_thread times.
__global__ void sixteen_bins(unsigned* bins, int per_thread) {
  for (int k = 0; k < per_thread; ++k) {
    atomicAdd(&bins[(threadIdx.x + blockIdx.x + k) % 16], 1u);
  }
}

// One-thread blocks; the first to start waits (spinning on an atomic) until every other block
// has finished: a block waiting for blocks nobody may have claimed yet.
__global__ void first_waits_for_the_rest(unsigned* started, unsigned* finished, unsigned* seen) {
  const unsigned rank = atomicAdd(started, 1u);
  if (rank == 0) {
    while (atomicAdd(finished, 0u) != gridDim.x - 1) {
    }
    *seen = atomicAdd(finished, 0u);
    return;
  }
  atomicAdd(finished, 1u);
}

// The course's non-atomic histogram: every thread increments bins[key[i]] with a plain ++.
__global__ void plain_increments(const int* keys, int n, unsigned* bins, unsigned* olds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    olds[i] = bins[keys[i]]++;
  }
}

// The same in a block's shared bins (one block), copied out after a barrier; each thread also
// adds twice to its own shared element, which nothing loses.
__global__ void shared_plain_increments(const int* keys, int n, unsigned* bins, unsigned* olds,
                                        unsigned* own) {
  __shared__ unsigned s[16];
  __shared__ unsigned mine[64];
  const int t = threadIdx.x;
  if (t < 16) {
    s[t] = 0;
  }
  mine[t] = 0;
  __syncthreads();
  if (t < n) {
    olds[t] = s[keys[t]]++;
  }
  mine[t] += 1;
  mine[t] += 1;
  __syncthreads();
  if (t < 16) {
    bins[t] = s[t];
  }
  own[t] = mine[t];
}

// Each thread adds to its own element, and to a local array: nothing is lost.
__global__ void own_updates(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float local[4] = {0, 0, 0, 0};
  for (int k = 0; k < 4; ++k) {
    local[k & 3] += 1.0f;
    if (i < n) {
      out[i] += local[k & 3];
    }
  }
}

// Every thread takes a lock in turn (a spin on atomicCAS, as in "CUDA by Example"), adds to one
// global total with a plain +=, and lets go: right on a GPU since Volta.
__global__ void locked_total(int* mutex, float* total, const float* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool done = i >= n;
  while (!done) {
    if (atomicCAS(mutex, 0, 1) == 0) {
      total[0] += v[i];
      __threadfence();
      atomicExch(mutex, 0);
      done = true;
    }
  }
}

// Each block sums its 64 values in shared memory, then its thread 0 adds the block's sum to the
// total with a plain += (the race between blocks a course warns about), or with atomicAdd.
__global__ void block_sums(const float* v, float* total, bool atomic) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  s[t] = v[blockIdx.x * 64 + t];
  __syncthreads();
  for (int stride = 32; stride > 0; stride /= 2) {
    if (t < stride) {
      s[t] += s[t + stride];
    }
    __syncthreads();
  }
  if (t == 0) {
    if (atomic) {
      atomicAdd(total, s[0]);
    } else {
      total[0] += s[0];
    }
  }
}

extern "C" void run_sequence(atomic_cells* c, int* olds) {
  sequence<<<1, 1>>>(c, olds);
}
extern "C" void run_contention(unsigned* counter, float* fsum, unsigned long long* big,
                               unsigned* totals, int blocks, int threads) {
  contention<<<blocks, threads>>>(counter, fsum, big, totals);
}
extern "C" void run_ring(unsigned* c) {
  ring<<<1, 100>>>(c);
}
extern "C" unsigned long long cell_bytes() {
  return sizeof(atomic_cells);
}
extern "C" void run_sixteen_bins(unsigned* bins, int blocks, int threads, int per_thread) {
  sixteen_bins<<<blocks, threads>>>(bins, per_thread);
}
extern "C" void run_first_waits_for_the_rest(unsigned* started, unsigned* finished,
                                             unsigned* seen, int blocks) {
  first_waits_for_the_rest<<<blocks, 1>>>(started, finished, seen);
}
extern "C" void run_plain_increments(const int* keys, int n, unsigned* bins, unsigned* olds,
                                     int blocks, int threads) {
  plain_increments<<<blocks, threads>>>(keys, n, bins, olds);
}
extern "C" void run_shared_plain_increments(const int* keys, int n, unsigned* bins,
                                            unsigned* olds, unsigned* own, int threads) {
  shared_plain_increments<<<1, threads>>>(keys, n, bins, olds, own);
}
extern "C" void run_own_updates(float* out, int n) {
  own_updates<<<(n + 127) / 128, 128>>>(out, n);
}
extern "C" void run_locked_total(int* mutex, float* total, const float* v, int n) {
  locked_total<<<(n + 63) / 64, 64>>>(mutex, total, v, n);
}
extern "C" void run_block_sums(const float* v, float* total, int blocks, bool atomic) {
  block_sums<<<blocks, 64>>>(v, total, atomic);
}

// The same plain increments into a __device__ array, copied out afterwards.
__device__ unsigned g_plain_bins[16];

__global__ void device_array_plain_increments(const int* keys, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    g_plain_bins[keys[i]]++;
  }
}

extern "C" void run_device_array_plain_increments(const int* keys, int n, unsigned* bins,
                                                  int blocks, int threads) {
  const unsigned zeros[16] = {0};
  cudaMemcpyToSymbol(g_plain_bins, zeros, sizeof zeros);
  device_array_plain_increments<<<blocks, threads>>>(keys, n);
  cudaMemcpyFromSymbol(bins, g_plain_bins, sizeof zeros, 0, cudaMemcpyDeviceToDevice);
}

// Every thread counts itself into one total through a pointer, as students write a counter:
// `(*count)++;` and `*sum += 1;`.
__global__ void count_through_pointers(int n, unsigned* count, unsigned* sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    (*count)++;
    *sum += 1;
  }
}

extern "C" void run_count_through_pointers(int n, unsigned* totals, int blocks, int threads) {
  count_through_pointers<<<blocks, threads>>>(n, totals, totals + 1);
}
