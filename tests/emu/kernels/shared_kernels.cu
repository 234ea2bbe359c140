// Shared memory: function-scope 1-D, 2-D and scalar declarations, file-scope arrays, dynamic
// shared memory (function and file scope), freshness and garbage.
#include <cuda_runtime.h>

#define TILE 8

__shared__ int file_tile[TILE][TILE];
__shared__ unsigned int file_count;
extern __shared__ float file_dynamic[];

// Every thread writes its slot; after the barrier every thread reads a slot written by another.
__global__ void rotate_1d(int* out) {
  __shared__ int slots[64];
  const int t = threadIdx.x;
  slots[t] = t * 10 + blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = slots[(t + 1) % blockDim.x];
}

__global__ void transpose_2d(int* out) {
  __shared__ volatile int tile[TILE][TILE + 1], unused;
  __shared__ unsigned int count;
  const int x = threadIdx.x, y = threadIdx.y;
  if (x == 0 && y == 0) {
    count = 0;
  }
  tile[y][x] = y * TILE + x;
  __syncthreads();
  atomicAdd(&count, 1u);
  __syncthreads();
  out[y * TILE + x] = tile[x][y] + static_cast<int>(count) * 1000;
  unused = 0;
}

__global__ void file_scope_tile(int* out) {
  const int x = threadIdx.x, y = threadIdx.y;
  if (x == 0 && y == 0) {
    file_count = 0;
  }
  file_tile[y][x] = y * TILE + x + blockIdx.x * 100;
  __syncthreads();
  atomicAdd(&file_count, 1u);
  __syncthreads();
  if (x == 0 && y == 0 && file_count++ != TILE * TILE) {
    file_tile[0][0] = -1; // shows up as a wrong element
  }
  __syncthreads();
  int* flat = &file_tile[0][0];
  out[blockIdx.x * TILE * TILE + y * TILE + x] = flat[x * TILE + y];
}

__global__ void dynamic_reverse(float* out, int n) {
  extern __shared__ float buffer[];
  const int t = threadIdx.x;
  buffer[t] = static_cast<float>(t);
  __syncthreads();
  out[t] = buffer[n - 1 - t];
}

__global__ void file_dynamic_reverse(float* out, int n) {
  const int t = threadIdx.x;
  file_dynamic[t] = static_cast<float>(t) + 0.5f;
  __syncthreads();
  float* base = file_dynamic;
  out[t] = base[n - 1 - t];
}

// Reads shared memory nobody wrote: garbage, never zeros. Block 0 also writes a marker that a
// later block must not see.
__global__ void read_unwritten(unsigned* out) {
  __shared__ unsigned int junk[256];
  const int t = threadIdx.x;
  out[blockIdx.x * blockDim.x + t] = junk[t];
  __syncthreads();
  junk[t] = 0xC0FFEEu;
}

__global__ void read_unwritten_dynamic(unsigned* out) {
  extern __shared__ unsigned int junk_dynamic[];
  out[threadIdx.x] = junk_dynamic[threadIdx.x];
}

extern "C" void run_rotate(int* out, int blocks) {
  rotate_1d<<<blocks, 64>>>(out);
}
extern "C" void run_transpose(int* out) {
  transpose_2d<<<1, dim3(TILE, TILE)>>>(out);
}
extern "C" void run_file_tile(int* out, int blocks) {
  file_scope_tile<<<blocks, dim3(TILE, TILE)>>>(out);
}
extern "C" void run_dynamic_reverse(float* out, int n) {
  dynamic_reverse<<<1, n, n * sizeof(float)>>>(out, n);
}
extern "C" void run_file_dynamic_reverse(float* out, int n) {
  file_dynamic_reverse<<<1, n, n * sizeof(float)>>>(out, n);
}
extern "C" void run_read_unwritten(unsigned* out, int blocks) {
  read_unwritten<<<blocks, 256>>>(out);
}
extern "C" void run_read_unwritten_dynamic(unsigned* out) {
  read_unwritten_dynamic<<<1, 64, 64 * sizeof(unsigned)>>>(out);
}
