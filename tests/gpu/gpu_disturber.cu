// cugrade_gpu_disturber SECONDS: keeps a GPU irregularly busy, ignoring cugrade's GPU lock, for
// the shared-GPU tests (tests/e2e/shared_gpu_test.cpp): bursts of spinning kernels of random
// length on every SM with random pauses between, the way another user's job disturbs a timing.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <random>
#include <thread>

namespace {

__global__ void spin(unsigned long long ns, int* sink) {
  unsigned long long t0 = 0;
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - t0 < ns);
  if (now == 0) {
    *sink = 1; // never: keeps the loop
  }
}

} // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 30;
  int sms = 0;
  int* sink = nullptr;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess ||
      cudaMalloc(&sink, sizeof(int)) != cudaSuccess) {
    std::fprintf(stderr, "cugrade_gpu_disturber: no usable GPU\n");
    return 3;
  }
  std::mt19937 rng(20261123);
  std::uniform_int_distribution<int> busy_us(300, 4000);
  std::uniform_int_distribution<int> idle_us(0, 3000);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  long bursts = 0;
  while (std::chrono::steady_clock::now() < end) {
    spin<<<4 * sms, 256>>>(1000ull * busy_us(rng), sink);
    cudaDeviceSynchronize();
    std::this_thread::sleep_for(std::chrono::microseconds(idle_us(rng)));
    ++bursts;
  }
  std::printf("cugrade_gpu_disturber: %ld bursts in %.0f s\n", bursts, seconds);
  cudaFree(sink);
  return 0;
}
