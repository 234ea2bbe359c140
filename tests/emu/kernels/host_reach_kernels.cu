// Launchers that hand kernels host memory (a GPU's kernel faults on it) and one whose kernels
// reach only what a GPU's kernel may: device buffers, their own variables, __device__ and
// __constant__ variables, a by-value argument, pinned and managed memory.
#include <cuda_runtime.h>

#include <stdlib.h>

#define PER_BLOCK 64

__global__ void block_totals(const float* in, int n, float* totals) {
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int i = blockIdx.x * PER_BLOCK; i < n && i < (blockIdx.x + 1) * PER_BLOCK; ++i) {
      s += in[i];
    }
    totals[blockIdx.x] = s; // TOTALS_STORE
  }
}

// The per-block totals go to a malloc'ed host array: the cudaMalloc forgotten.
extern "C" void totals_in_malloced_memory(const float* in, int n, float* out) {
  const int blocks = (n + PER_BLOCK - 1) / PER_BLOCK;
  float* totals = (float*)malloc(blocks * sizeof(float));
  block_totals<<<blocks, 32>>>(in, n, totals);
  cudaDeviceSynchronize();
  float sum = 0.0f;
  for (int b = 0; b < blocks; ++b) {
    sum += totals[b];
  }
  cudaMemcpy(out, &sum, sizeof sum, cudaMemcpyHostToDevice);
  free(totals);
}

__global__ void scale_by(const float* factors, const float* in, int n, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * factors[i % 4]; // FACTORS_READ
  }
}

// The factors live on the launcher's stack.
extern "C" void factors_on_the_host_stack(const float* in, int n, float* out) {
  const float factors[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  scale_by<<<(n + 127) / 128, 128>>>(factors, in, n, out);
  cudaDeviceSynchronize();
}

__global__ void count_signs(const float* in, int n, unsigned* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&counts[in[i] < 0.0f ? 1 : 0], 1u); // COUNTS_ATOMIC
  }
}

// The counters are `new`ed on the host.
extern "C" void counters_from_new(const float* in, int n, float* out) {
  unsigned* counts = new unsigned[2]();
  count_signs<<<(n + 255) / 256, 256>>>(in, n, counts);
  cudaDeviceSynchronize();
  const float positive = (float)counts[0];
  cudaMemcpy(out, &positive, sizeof positive, cudaMemcpyHostToDevice);
  delete[] counts;
}

__constant__ float c_weights[4];
__device__ float g_bias[4];

struct offsets {
  int by[4];
};

__global__ void lawful_reach(const float* in, int n, const float* pinned, float* managed,
                             offsets o, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float local[4];
  for (int k = 0; k < 4; ++k) {
    local[k] = c_weights[k] + g_bias[k] + (float)o.by[k];
  }
  if (i < n) {
    out[i] = in[i] * local[i % 4] + pinned[i % 4];
    managed[i] = out[i];
  }
}

// Reaches each kind of memory a GPU's kernel may: out[i] = in[i] * 2 + 1 for 1s.
extern "C" void lawful_memory(const float* in, int n, float* out) {
  const float weights[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  const float bias[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  cudaMemcpyToSymbol(c_weights, weights, sizeof weights);
  cudaMemcpyToSymbol(g_bias, bias, sizeof bias);
  float* pinned = nullptr;
  cudaMallocHost((void**)&pinned, 4 * sizeof(float));
  for (int k = 0; k < 4; ++k) {
    pinned[k] = 1.0f;
  }
  float* managed = nullptr;
  cudaMallocManaged((void**)&managed, n * sizeof(float));
  offsets o = {{0, 0, 0, 0}};
  lawful_reach<<<(n + 127) / 128, 128>>>(in, n, pinned, managed, o, out);
  cudaDeviceSynchronize();
  cudaFreeHost(pinned);
  cudaFree(managed);
}

__global__ void scratch_from_the_device_heap(const float* in, int n, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float* scratch = (float*)malloc(2 * sizeof(float));
  if (scratch == NULL) {
    return;
  }
  scratch[0] = i < n ? in[i] : 0.0f;
  scratch[1] = scratch[0] + 1.0f;
  if (i < n) {
    out[i] = scratch[1];
  }
  free(scratch);
}

// Each thread's scratch from device code's own malloc: out[i] = in[i] + 1.
extern "C" void device_heap_scratch(const float* in, int n, float* out) {
  scratch_from_the_device_heap<<<(n + 127) / 128, 128>>>(in, n, out);
  cudaDeviceSynchronize();
}

__global__ void sum_into(const float* in, int n, float* total) {
  __shared__ float s[128];
  s[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float acc = 0.0f;
    for (int k = 0; k < 128; ++k) {
      acc += s[k];
    }
    *total = acc; // TOTAL_STORE
  }
}

// The total goes to the launcher's own variable: `&total` is a host address.
extern "C" void total_in_a_host_variable(const float* in, int n, float* out) {
  float total = 0.0f;
  sum_into<<<1, 128>>>(in, n, &total);
  cudaDeviceSynchronize();
  cudaMemcpy(out, &total, sizeof total, cudaMemcpyHostToDevice);
}

__global__ void scale_first(const float* in, const int* count, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < *count) { // COUNT_READ
    out[i] = in[i] * 2.0f;
  }
}

// The element count is passed by its host address instead of by value.
extern "C" void count_by_host_address(const float* in, int n, float* out) {
  scale_first<<<(n + 127) / 128, 128>>>(in, &n, out);
  cudaDeviceSynchronize();
}

__device__ float g_scale = 2.0f;

__device__ void add_to(float* target, float value) {
  *target += value;
}

__global__ void through_lawful_pointers(const float* in, int n, float* out) {
  __shared__ float tile[128];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float mine = i < n ? *(in + i) : 0.0f;
  float* slot = &tile[threadIdx.x];
  *slot = mine;
  const float* scale = &g_scale;
  add_to(&mine, *slot * (*scale - 1.0f));
  if (i < n) {
    *(out + i) = mine;
  }
}

// Loads and stores through pointers to a device buffer, shared memory, a local and a __device__
// variable: out[i] = 2 * in[i].
extern "C" void lawful_pointers(const float* in, int n, float* out) {
  through_lawful_pointers<<<(n + 127) / 128, 128>>>(in, n, out);
  cudaDeviceSynchronize();
}
