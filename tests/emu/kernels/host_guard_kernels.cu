// Launchers whose host code touches device memory, directly (a GPU kills the process) or through
// the runtime (which must keep working while device buffers are closed to host code).
#include <cuda_runtime.h>

#include <vector>

__device__ float g_scale;

// Each block writes its sum of `per_block` inputs to partial[blockIdx.x].
__global__ void block_sums(const float* in, int n, float* partial, int per_block) {
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int i = blockIdx.x * per_block; i < n && i < (blockIdx.x + 1) * per_block; ++i) {
      s += in[i];
    }
    partial[blockIdx.x] = s * g_scale;
  }
}

// The host-side partial sums of a student who forgot that `partial` lives on the device.
extern "C" void host_sums_device_partials(const float* in, int n, float* out) {
  const float one = 1.0f;
  cudaMemcpyToSymbol(g_scale, &one, sizeof one);
  const int blocks = (n + 63) / 64;
  float* partial = nullptr;
  cudaMalloc(&partial, blocks * sizeof(float));
  block_sums<<<blocks, 32>>>(in, n, partial, 64);
  float total = 0.0f;
  for (int b = 0; b < blocks; ++b) {
    total += partial[b]; // reads device memory from the host
  }
  cudaMemcpy(out, &total, sizeof total, cudaMemcpyHostToDevice);
  cudaFree(partial);
}

// Stores the total through the device pointer it was given.
extern "C" void host_stores_result(const float* in, int n, float* out) {
  std::vector<float> host(n);
  cudaMemcpy(host.data(), in, n * sizeof(float), cudaMemcpyDeviceToHost);
  float total = 0.0f;
  for (float x : host) {
    total += x;
  }
  *out = total; // writes device memory from the host
}

// The same sum through the runtime only: a scratch buffer, a set, a launch, copies both ways, a
// device-to-device copy and a symbol filled from a device buffer.
extern "C" void runtime_only_sum(const float* in, int n, float* out) {
  float* scale = nullptr;
  cudaMalloc(&scale, sizeof(float));
  const float one = 1.0f;
  cudaMemcpy(scale, &one, sizeof one, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(g_scale, scale, sizeof(float), 0, cudaMemcpyDeviceToDevice);
  const int blocks = (n + 63) / 64;
  float* partial = nullptr;
  cudaMalloc(&partial, blocks * sizeof(float));
  cudaMemset(partial, 0, blocks * sizeof(float));
  block_sums<<<blocks, 32>>>(in, n, partial, 64);
  std::vector<float> host(blocks);
  cudaMemcpy(host.data(), partial, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  float total = 0.0f;
  for (float x : host) {
    total += x;
  }
  cudaMemcpy(partial, &total, sizeof total, cudaMemcpyHostToDevice);
  cudaMemcpy(out, partial, sizeof total, cudaMemcpyDeviceToDevice);
  cudaDeviceSynchronize();
  cudaFree(partial);
  cudaFree(scale);
}
