// A matmul launcher that does what the contract forbids, each with the words a report must use:
// a file (fopen, std::ofstream), a process (system), the environment (getenv), a clock
// (std::chrono), a thread (std::thread) and a stream (cudaStreamCreate). The symbol policy must
// refuse each of them from every host compiler's object.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

__global__ void fill_kernel(float* P, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    P[i] = 0.0f;
  }
}

static void note() { std::puts("a thread"); }

extern "C" void matmul_naive(const float*, const float*, float* P, int j, int, int l) {
  if (FILE* answers = std::fopen("/tmp/answers.txt", "r")) {
    std::fclose(answers);
  }
  std::ofstream log("/tmp/log.txt");
  log << j << '\n';
  std::system("echo hello");
  if (std::getenv("HOME") != nullptr) {
    std::cout << "home is set\n";
  }
  const auto start = std::chrono::steady_clock::now();
  std::thread worker(note);
  worker.join();
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  fill_kernel<<<(j * l + 255) / 256, 256, 0, stream>>>(P, j * l);
  cudaStreamDestroy(stream);
  std::cout << (std::chrono::steady_clock::now() - start).count() << std::endl;
}
