// Bins indexed by a byte read as a signed char (signed_bytes.h), in the idioms of students who
// kept the textbook's `char* data` for the contract's 256 bins, and the forms that are right.
#include "grader/core/signed_bytes.h"

#include <gtest/gtest.h>

#include <string>

namespace cugrade::grader {
namespace {

// A privatised histogram over `char* buffer`, and a launcher that casts the input to match.
constexpr const char* k_private = R"(#include <cuda_runtime.h>
__global__ void histo_private(char *buffer, long len, unsigned int *histo) {
  __shared__ unsigned int private_histogram[256];
  if (threadIdx.x < 256) private_histogram[threadIdx.x] = 0;
  __syncthreads();
  long i = threadIdx.x + blockDim.x * (long)blockIdx.x;
  while (i < len) {
    atomicAdd(&private_histogram[buffer[i]], 1);
    i += blockDim.x * (long)gridDim.x;
  }
  __syncthreads();
  if (threadIdx.x < 256) atomicAdd(&histo[threadIdx.x], private_histogram[threadIdx.x]);
}
__global__ void histo_right(const unsigned char *buffer, long len, unsigned int *histo) {
  long i = threadIdx.x + blockDim.x * (long)blockIdx.x;
  if (i < len) atomicAdd(&histo[buffer[i]], 1);
}
extern "C" void histogram_privatized(const unsigned char* input, long n, unsigned int* bins) {
  cudaMemset(bins, 0, 256 * sizeof(unsigned int));
  histo_private<<<64, 256>>>((char*)input, n, bins);
}
extern "C" void histogram_interleaved(const unsigned char* input, long n, unsigned int* bins) {
  cudaMemset(bins, 0, 256 * sizeof(unsigned int));
  histo_right<<<64, 256>>>(input, n, bins);
}
)";

TEST(SignedBytes, ABinIndexedByACharElementIsFoundWithItsLine) {
  const auto found = signed_byte_indexes(k_private);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].function, "histo_private");
  EXPECT_EQ(found[0].array, "private_histogram");
  EXPECT_EQ(found[0].bytes, "buffer");
  EXPECT_EQ(found[0].line, 8);
  EXPECT_EQ(found[0].access, "private_histogram[buffer[i]]");
}

TEST(SignedBytes, OnlyTheLaunchersOwnKernelsCount) {
  EXPECT_EQ(signed_byte_indexes_of_launcher(k_private, "histogram_privatized").size(), 1u);
  EXPECT_TRUE(signed_byte_indexes_of_launcher(k_private, "histogram_interleaved").empty());
}

TEST(SignedBytes, AVariableHoldingTheByteAndACastThatKeepsTheSignAreFound) {
  const auto through_int = signed_byte_indexes(R"(
__global__ void h(const char* __restrict__ data, long n, unsigned int* bins) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) {
    int value = data[i];
    atomicAdd(&bins[value], 1u);
  }
})");
  ASSERT_EQ(through_int.size(), 1u);
  EXPECT_EQ(through_int[0].access, "bins[value]");
  EXPECT_EQ(through_int[0].bytes, "data");
  const auto cast = signed_byte_indexes(R"(
__global__ void h(signed char* data, long n, unsigned int* bins) {
  for (long i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(bins + 0, 0), atomicAdd(&bins[(int)data[i]], 1u);
})");
  ASSERT_EQ(cast.size(), 1u);
  EXPECT_EQ(cast[0].access, "bins[(int)data[i]]");
  const auto local = signed_byte_indexes(R"(
__global__ void h(const unsigned char* input, long n, unsigned int* bins) {
  const char* text = (const char*)input;
  char c = text[threadIdx.x];
  if (threadIdx.x < n) atomicAdd(&bins[c], 1u);
})");
  ASSERT_EQ(local.size(), 1u);
  EXPECT_EQ(local[0].access, "bins[c]");
}

TEST(SignedBytes, UnsignedBytesCastsAndTheTextbooksAlphabetAreNotFindings) {
  // Each kernel is right for all 256 byte values, or computes with the byte rather than
  // indexing by it (the textbook's letters, a-z, in 7 bins).
  EXPECT_TRUE(signed_byte_indexes(R"(
__global__ void a(const unsigned char* data, long n, unsigned int* bins) {
  if (threadIdx.x < n) atomicAdd(&bins[data[threadIdx.x]], 1u);
}
__global__ void b(const char* data, long n, unsigned int* bins) {
  if (threadIdx.x < n) atomicAdd(&bins[(unsigned char)data[threadIdx.x]], 1u);
}
__global__ void c(char* data, unsigned int length, unsigned int* histo) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < length) {
    int alphabet_position = data[i] - 'a';
    if (alphabet_position >= 0 && alphabet_position < 26) atomicAdd(&(histo[alphabet_position / 4]), 1);
  }
}
__global__ void d(const char* data, long n, unsigned int* bins) {
  if (threadIdx.x < n) atomicAdd(&bins[(uint8_t)data[threadIdx.x]], 1u);
}
__global__ void e(const char* data, long n, char* out) {
  if (threadIdx.x < n) out[threadIdx.x] = data[threadIdx.x];
}
__global__ void f(const unsigned char* data, long n, unsigned int* bins) {
  char first = 'a';
  if (threadIdx.x < n) atomicAdd(&bins[first], 1u);
}
)")
                  .empty());
}

} // namespace
} // namespace cugrade::grader
