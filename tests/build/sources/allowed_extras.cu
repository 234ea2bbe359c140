// Everything here is allowed: scratch device memory, synchronous copies, properties, attributes,
// occupancy, error checks that print and exit, host containers, and console output.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

#define CHECK(call)                                                                             \
  do {                                                                                          \
    cudaError_t status = (call);                                                                \
    if (status != cudaSuccess) {                                                                \
      std::fprintf(stderr, "%s: %s\n", cudaGetErrorName(status), cudaGetErrorString(status));   \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

__constant__ float scale[1];

__global__ void scale_kernel(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * scale[0];
  }
}

extern "C" void matmul_naive(const float* M, const float*, float* P, int j, int, int l) {
  const int n = j * l;
  std::vector<float> host_scale(1, 1.0f);
  CHECK(cudaMemcpyToSymbol(scale, host_scale.data(), sizeof(float)));
  float* scratch = nullptr;
  CHECK(cudaMalloc(&scratch, n * sizeof(float)));
  CHECK(cudaMemset(scratch, 0, n * sizeof(float)));
  CHECK(cudaMemcpy(scratch, M, n * sizeof(float), cudaMemcpyDeviceToDevice));
  int device = 0;
  CHECK(cudaGetDevice(&device));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int block = 128;
  int blocks_per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, scale_kernel, block, 0));
  CHECK(cudaFuncSetAttribute(scale_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 0));
  scale_kernel<<<(n + block - 1) / block, block>>>(scratch, P, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(scratch));
  std::printf("launched on %d SMs, %d blocks each\n", sms, blocks_per_sm);
  std::cout << "block size " << block << std::endl;
}
