// Kernels whose blocks the emulator runs as region forms when it does not check them (more than
// 32 blocks: tests/emu/region_test.cpp), in the course's forms: a tiled matmul whose tile loop
// holds both barriers, a Kogge-Stone scan whose `temp` lives across a barrier in the loop, a
// privatized histogram launched with 2-D blocks over 1-D data, and a reduction with an assert.
#include <cassert>
#include <cuda_runtime.h>

#define TILE 16

__global__ void tiled(const float* M, const float* N, float* P, int width) {
  __shared__ float Ms[TILE][TILE];
  __shared__ float Ns[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  int phases = (width + TILE - 1) / TILE;
  float value = 0;
  for (int ph = 0; ph < phases; ++ph) {
    Ms[ty][tx] = (row < width && ph * TILE + tx < width) ? M[row * width + ph * TILE + tx] : 0;
    Ns[ty][tx] = (col < width && ph * TILE + ty < width) ? N[(ph * TILE + ty) * width + col] : 0;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      value += Ms[ty][k] * Ns[k][tx];
    }
    __syncthreads();
  }
  if (row < width && col < width) {
    P[row * width + col] = value;
  }
}

#define SECTION 128

__global__ void kogge_stone(const float* X, float* Y, long n) {
  __shared__ float XY[SECTION];
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  XY[threadIdx.x] = i < n ? X[i] : 0.0f;
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    float temp = 0.0f;
    if (threadIdx.x >= stride) {
      temp = XY[threadIdx.x] + XY[threadIdx.x - stride];
    }
    __syncthreads();
    if (threadIdx.x >= stride) {
      XY[threadIdx.x] = temp;
    }
  }
  if (i < n) {
    Y[i] = XY[threadIdx.x];
  }
}

#define NUM_BINS 256

__global__ void histo_2d(const unsigned char* data, long n, unsigned int* bins) {
  __shared__ unsigned int bins_s[NUM_BINS];
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  for (unsigned b = t; b < NUM_BINS; b += blockDim.x * blockDim.y) {
    bins_s[b] = 0;
  }
  __syncthreads();
  const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.y == 0 && i < n) {
    atomicAdd(&bins_s[data[i]], 1u);
  }
  __syncthreads();
  for (unsigned b = t; b < NUM_BINS; b += blockDim.x * blockDim.y) {
    if (bins_s[b] > 0) {
      atomicAdd(&bins[b], bins_s[b]);
    }
  }
}

__global__ void reduce_assert(const float* in, float* out, int bad_block) {
  __shared__ float partial[256];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * 256 + t];
  for (unsigned stride = 128; stride >= 1; stride /= 2) {
    __syncthreads();
    assert(!(blockIdx.x == bad_block && t == 77 && stride == 4)); // LINE:region_assert
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
  }
  if (t == 0) {
    out[blockIdx.x] = partial[0];
  }
}

// Each thread writes the line of the statement it is running in each region: the form keeps
// the student's lines.
__global__ void lines(int* out) {
  __shared__ int seen[64];
  seen[threadIdx.x] = __LINE__; // LINE:region_first
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = seen[63 - threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + 64 + threadIdx.x] = __LINE__; // LINE:region_last
}

extern "C" void run_tiled(const float* M, const float* N, float* P, int width) {
  tiled<<<dim3((width + TILE - 1) / TILE, (width + TILE - 1) / TILE), dim3(TILE, TILE)>>>(M, N, P,
                                                                                          width);
}
extern "C" void run_kogge_stone(const float* X, float* Y, long n) {
  kogge_stone<<<(n + SECTION - 1) / SECTION, SECTION>>>(X, Y, n);
}
extern "C" void run_histo_2d(const unsigned char* data, long n, unsigned int* bins) {
  cudaMemset(bins, 0, NUM_BINS * sizeof(unsigned int));
  histo_2d<<<(n + 31) / 32, dim3(32, 32)>>>(data, n, bins);
}
extern "C" void run_reduce_assert(const float* in, float* out, int blocks, int bad_block) {
  reduce_assert<<<blocks, 256>>>(in, out, bad_block);
}
extern "C" void run_lines(int* out, int blocks) {
  lines<<<blocks, 64>>>(out);
}
