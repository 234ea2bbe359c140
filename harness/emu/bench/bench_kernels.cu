// Kernels timed by emu_bench, written the way the course writes them.
#include <cuda_runtime.h>

#define TILE_WIDTH 16
#define REDUCE_BLOCK 256

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;
  float sum = 0.0f;
  for (int ph = 0; ph < width / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = M[row * width + ph * TILE_WIDTH + tx];
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * width + col];
    __syncthreads();
    for (int e = 0; e < TILE_WIDTH; ++e) {
      sum += Mds[ty][e] * Nds[e][tx];
    }
    __syncthreads();
  }
  P[row * width + col] = sum;
}

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int width) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < width && col < width) {
    float sum = 0.0f;
    for (int e = 0; e < width; ++e) {
      sum += M[row * width + e] * N[e * width + col];
    }
    P[row * width + col] = sum;
  }
}

__global__ void reduce_kernel(const float* in, long n, float* out) {
  __shared__ float partial[REDUCE_BLOCK];
  const unsigned t = threadIdx.x;
  const long i = blockIdx.x * (long)REDUCE_BLOCK + t;
  partial[t] = i < n ? in[i] : 0.0f;
  for (unsigned stride = REDUCE_BLOCK / 2; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
  }
  if (t == 0) {
    atomicAdd(out, partial[0]);
  }
}

// A reduction's warp step as courses write it with shuffles: each warp sums its 32 values by
// __shfl_down_sync, and lane 0 adds the warp's sum to the total.
__global__ void reduce_shuffle_kernel(const float* in, long n, float* out) {
  const long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(out, v);
  }
}

__global__ void empty_barriers(int count) {
  for (int i = 0; i < count; ++i) {
    __syncthreads();
  }
}

extern "C" void bench_matmul_tiled(const float* M, const float* N, float* P, int width) {
  matmul_tiled_kernel<<<dim3(width / TILE_WIDTH, width / TILE_WIDTH),
                        dim3(TILE_WIDTH, TILE_WIDTH)>>>(M, N, P, width);
}

extern "C" void bench_matmul_naive(const float* M, const float* N, float* P, int width) {
  matmul_naive_kernel<<<dim3((width + 15) / 16, (width + 15) / 16), dim3(16, 16)>>>(M, N, P, width);
}

extern "C" void bench_reduce(const float* in, long n, float* out) {
  cudaMemset(out, 0, sizeof(float));
  reduce_kernel<<<(n + REDUCE_BLOCK - 1) / REDUCE_BLOCK, REDUCE_BLOCK>>>(in, n, out);
}

extern "C" void bench_reduce_shuffle(const float* in, long n, float* out) {
  cudaMemset(out, 0, sizeof(float));
  reduce_shuffle_kernel<<<(n + 255) / 256, 256>>>(in, n, out);
}

extern "C" void bench_barriers(int blocks, int threads, int count) {
  empty_barriers<<<blocks, threads>>>(count);
}

// The privatised histogram of the course, launched as a student did: 32 x 32 blocks over 1-D
// input, so only row 0 of each block (1 thread in 32) has a byte to count.
#define NUM_BINS 256

__global__ void histogram_2d_blocks(const unsigned char* data, long n, unsigned int* bins) {
  __shared__ unsigned int bins_s[NUM_BINS];
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  for (unsigned b = t; b < NUM_BINS; b += blockDim.x * blockDim.y) {
    bins_s[b] = 0;
  }
  __syncthreads();
  const long row = blockIdx.y * blockDim.y + threadIdx.y;
  const long col = blockIdx.x * blockDim.x + threadIdx.x;
  const long i = row * (long)gridDim.x * blockDim.x + col;
  if (i < n) {
    atomicAdd(&bins_s[data[i]], 1u);
  }
  __syncthreads();
  for (unsigned b = t; b < NUM_BINS; b += blockDim.x * blockDim.y) {
    if (bins_s[b] > 0) {
      atomicAdd(&bins[b], bins_s[b]);
    }
  }
}

extern "C" void bench_histogram_2d_blocks(const unsigned char* data, long n, unsigned int* bins) {
  cudaMemset(bins, 0, NUM_BINS * sizeof(unsigned int));
  histogram_2d_blocks<<<(n + 31) / 32, dim3(32, 32)>>>(data, n, bins);
}

// The course's interleaved histogram: every count is an atomic on the global bins, which every
// worker's blocks share (docs/emulation.md, "Contended atomics").
__global__ void histogram_interleaved(const unsigned char* data, long n, unsigned int* bins) {
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&bins[data[i]], 1u);
  }
}

extern "C" void bench_histogram_interleaved(const unsigned char* data, long n,
                                            unsigned int* bins) {
  cudaMemset(bins, 0, NUM_BINS * sizeof(unsigned int));
  histogram_interleaved<<<1024, 256>>>(data, n, bins);
}

// A grid far larger than the data: 8192 x 8192 blocks of 8 x 8 threads (2^32 threads) for a
// `width` that leaves every thread outside the matrix, so each returns at once.
extern "C" void bench_early_return(const float* M, const float* N, float* P, int width) {
  matmul_naive_kernel<<<dim3(8192, 8192), dim3(8, 8)>>>(M, N, P, width);
}
