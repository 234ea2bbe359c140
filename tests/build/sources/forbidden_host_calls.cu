// Launchers that do what the contract forbids: each call below must be reported by name.
#include <cstdio>
#include <cstdlib>
#include <ctime>

__global__ void fill_kernel(float* P, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    P[i] = 0.0f;
  }
}

extern "C" void matmul_naive(const float*, const float*, float* P, int j, int, int l) {
  std::system("echo pwned");                  // processes
  if (std::getenv("CUGRADE_SECRET") != nullptr) { // the environment
    return;
  }
  fill_kernel<<<(j * l + 255) / 256, 256>>>(P, j * l);
}

extern "C" void matmul_tiled(const float*, const float*, float* P, int j, int, int l) {
  FILE* file = std::fopen("/tmp/answers.txt", "r"); // files
  if (file != nullptr) {
    std::fclose(file);
  }
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now); // clocks
  fill_kernel<<<(j * l + 255) / 256, 256>>>(P, j * l);
}

extern "C" void matmul_dynamic(const float*, const float*, float* P, int j, int, int l) {
  cudaStream_t stream;
  cudaStreamCreate(&stream); // streams
  fill_kernel<<<(j * l + 255) / 256, 256, 0, stream>>>(P, j * l);
  cudaStreamDestroy(stream);
}
