// std::async starts a thread inside the library's template code, not on a line of the student's:
// the report names the #include that brought that code in.
#include <cuda_runtime.h>
#include <future>

__global__ void zero_kernel(float* P, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    P[i] = 0.0f;
  }
}

static int block_size() { return 256; }

extern "C" void matmul_naive(const float*, const float*, float* P, int j, int, int l) {
  auto size = std::async(std::launch::async, block_size);
  const int block = size.get();
  zero_kernel<<<(j * l + block - 1) / block, block>>>(P, j * l);
}
