// A student who reached for thrust rather than writing the kernel: the contract asks for the
// course's own kernels, and the report names the #include, on both backends.
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/fill.h>

extern "C" void matmul_naive(const float*, const float*, float* P, int j, int, int l) {
  thrust::device_ptr<float> out(P);
  thrust::fill(out, out + j * l, 0.0f);
}
