// Reference solution for the `reduction` assignment: *result = the sum of n floats.
//
// Each thread first adds up a grid-stride slice of the input in a register (so any n fits a grid
// sized for the device), the block then combines its threads' partial sums with a tree in shared
// memory, and thread 0 of each block adds the block's sum to *result with one atomicAdd.
// `*result` arrives holding garbage, so the launcher clears it first.

#include <cuda_runtime.h>

namespace {

constexpr int block_threads = 512; // a power of two: the trees below halve or double it exactly

int grid_blocks(long n) {
  int device = 0;
  int multiprocessors = 1;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device);
  const long wanted = 4L * multiprocessors;
  const long useful = (n + block_threads - 1) / block_threads;
  return static_cast<int>(wanted < useful ? wanted : useful);
}

__device__ float grid_stride_sum(const float* input, long n) {
  float sum = 0.0f;
  const long stride = static_cast<long>(blockDim.x) * gridDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    sum += input[i];
  }
  return sum;
}

// Lesson: the interleaved tree and control divergence. Stride doubles; thread t adds when
// t % (2*stride) == 0, so the active threads are spread across every warp and each warp keeps
// diverging until the last steps. Correct, but it wastes most of each warp's lanes.
__global__ void reduce_interleaved_kernel(const float* input, long n, float* result) {
  __shared__ float partial[block_threads];
  const unsigned t = threadIdx.x;
  partial[t] = grid_stride_sum(input, n);
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads(); // the previous step's sums are written before this step reads them
    if (t % (2 * stride) == 0) {
      partial[t] += partial[t + stride];
    }
  }
  if (t == 0) {
    atomicAdd(result, partial[0]);
  }
}

// Lesson: the convergent tree. Stride halves; the active threads t < stride are contiguous, so
// whole warps either all work or all idle, and divergence appears only in the last five steps.
// The barrier sits outside the `if`: every thread of the block must reach it.
__global__ void reduce_convergent_kernel(const float* input, long n, float* result) {
  __shared__ float partial[block_threads];
  const unsigned t = threadIdx.x;
  partial[t] = grid_stride_sum(input, n);
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
  }
  if (t == 0) {
    atomicAdd(result, partial[0]);
  }
}

} // namespace

extern "C" void reduce_interleaved(const float* input, long n, float* result) {
  cudaMemset(result, 0, sizeof(float));
  reduce_interleaved_kernel<<<grid_blocks(n), block_threads>>>(input, n, result);
}

extern "C" void reduce_convergent(const float* input, long n, float* result) {
  cudaMemset(result, 0, sizeof(float));
  reduce_convergent_kernel<<<grid_blocks(n), block_threads>>>(input, n, result);
}
