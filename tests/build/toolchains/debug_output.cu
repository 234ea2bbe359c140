// A matmul launcher that prints what a student prints while debugging: printf in the kernel and
// the launcher, std::cout / std::cerr with <<, std::endl, the usual manipulators, std::string
// formatting and an in-memory std::ostringstream. The contract allows all of it on every backend
// and host compiler, so the symbol policy must accept this object from each of them.
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

__global__ void matmul_kernel(const float* M, const float* N, float* P, int j, int k, int l) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row == 0 && col == 0) {
    printf("kernel: j=%d k=%d l=%d\n", j, k, l);
  }
  if (row < j && col < l) {
    float sum = 0.0f;
    for (int e = 0; e < k; ++e) {
      sum += M[row * k + e] * N[e * l + col];
    }
    P[row * l + col] = sum;
  }
}

extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l) {
  const dim3 block(16, 16);
  const dim3 grid((l + block.x - 1) / block.x, (j + block.y - 1) / block.y);
  std::printf("launching %u x %u blocks\n", grid.x, grid.y);
  std::fprintf(stderr, "M=%p N=%p P=%p\n", static_cast<const void*>(M),
               static_cast<const void*>(N), static_cast<void*>(P));
  std::puts("puts works too");
  std::cout << "j=" << j << " k=" << k << " l=" << l << std::endl;
  std::cerr << "grid " << grid.x << 'x' << grid.y << '\n';
  std::cout << std::fixed << std::setprecision(3) << 1.5f << ' ' << 2.25 << std::endl;
  std::cout << std::scientific << 1e-7 << std::defaultfloat << ' ' << 3.0 << '\n';
  std::cout << std::setw(8) << std::left << j << std::right << std::setfill('0') << std::setw(4)
            << k << std::setfill(' ') << '\n';
  std::cout << std::hex << l << std::dec << ' ' << std::boolalpha << (j == k) << '\n';
  std::cout << static_cast<long>(j) * k << ' ' << static_cast<unsigned long>(l) << ' '
            << static_cast<long long>(k) << ' ' << sizeof(float) << ' ' << M << '\n';
  const std::string shape = std::to_string(j) + "x" + std::to_string(k) + "x" + std::to_string(l);
  std::string message = "shape " + shape;
  message += " (" + std::to_string(1.0f * j * l) + " outputs)";
  std::cout << message << " of length " << message.size() << std::endl;
  std::printf("%s\n", message.c_str());
  std::ostringstream line;
  line << "block " << block.x << 'x' << block.y << " precision " << std::setprecision(2) << 0.125;
  std::cerr << line.str() << std::endl;
  std::cout.precision(6);
  std::cerr << std::flush;
  matmul_kernel<<<grid, block>>>(M, N, P, j, k, l);
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    std::cerr << "launch failed: " << cudaGetErrorString(status) << std::endl;
  }
}
