// The returns before a barrier that diagnosis reads in a submission's source (early_exits.h),
// in the idioms of real student kernels.
#include "grader/core/early_exits.h"
#include "tests/core/input_growth.h"

#include <gtest/gtest.h>

#include <string>

namespace cugrade::grader {
namespace {

constexpr const char* k_tiled_returns_early = R"(#include <cuda_runtime.h>
#define TILE_WIDTH 16
// a comment that says return before __syncthreads()
__global__ void matrixMulShared(const float* M, const float* N, float* P, int j, int k, int l) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  if (Row >= j || Col >= l) return;
  for (int ph = 0; ph < k / TILE_WIDTH; ph++) {
    Mds[ty][tx] = M[Row * k + ph * TILE_WIDTH + tx];
    __syncthreads();
  }
  P[Row * l + Col] = Mds[ty][tx];
}
extern "C" void matmul_tiled(const float* M, const float* N, float* P, int j, int k, int l) {
  dim3 block(TILE_WIDTH, TILE_WIDTH);
  matrixMulShared<<<dim3((l + 15) / 16, (j + 15) / 16), block>>>(M, N, P, j, k, l);
}
)";

TEST(EarlyExits, AReturnOfTheThreadsOutsidePBeforeTheTileLoopsBarrier) {
  const auto exits = early_exits(k_tiled_returns_early);
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].kernel, "matrixMulShared");
  EXPECT_EQ(exits[0].return_line, 10);
  EXPECT_EQ(exits[0].barrier_line, 13);
  EXPECT_EQ(exits[0].condition, "Row >= j || Col >= l");
}

TEST(EarlyExits, BelongToTheKernelsTheLauncherLaunches) {
  EXPECT_EQ(early_exits_of_launcher(k_tiled_returns_early, "matmul_tiled").size(), 1u);
  const std::string two = std::string(k_tiled_returns_early) + R"(
__global__ void naive(const float* M, const float* N, float* P, int j, int k, int l) {}
extern "C" void matmul_naive(const float* M, const float* N, float* P, int j, int k, int l) {
  naive<<<1, 1>>>(M, N, P, j, k, l);
}
)";
  EXPECT_TRUE(early_exits_of_launcher(two, "matmul_naive").empty());
  EXPECT_EQ(early_exits_of_launcher(two, "matmul_tiled").size(), 1u);
}

TEST(EarlyExits, AReturnInBracesInsideTheTreeOfAReduction) {
  const auto exits = early_exits(R"(
__global__ void reduce(const float* in, long n, float* out) {
  __shared__ float partial[512];
  unsigned int t = threadIdx.x;
  partial[t] = in[blockIdx.x * 512 + t];
  for (unsigned int stride = 256; stride > 0; stride >>= 1) {
    if (t >= stride) {
      return;
    }
    partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, partial[0]);
}
)");
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].return_line, 8);
  EXPECT_EQ(exits[0].barrier_line, 11);
  EXPECT_EQ(exits[0].condition, "t >= stride");
}

TEST(EarlyExits, NotAReturnEveryThreadOfTheBlockTakesNorOneAfterTheLastBarrier) {
  EXPECT_TRUE(early_exits(R"(
__global__ void __launch_bounds__(256) scan(const float* x, float* y, long n, int blocks) {
  __shared__ float XY[256];
  if (blockIdx.x >= blocks) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  XY[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i >= n) return;
  y[i] = XY[threadIdx.x];
}
)")
                  .empty());
}

TEST(EarlyExits, CommentsStringsAndDirectivesAreNotCode) {
  EXPECT_TRUE(early_exits(R"(
#define GUARD if (threadIdx.x > 3) return;
__global__ void k(float* y) {
  // if (threadIdx.x > 3) return;
  /* if (threadIdx.x > 3) return; */
  printf("if (threadIdx.x > 3) return;\n");
  __syncthreads();
  y[threadIdx.x] = 1.0f;
}
)")
                  .empty());
}

TEST(EarlyExits, AThreadIndexComputedThroughSeveralVariables) {
  const auto exits = early_exits_of_launcher(R"(
__global__ void hist(const unsigned char* in, long n, unsigned int* bins) {
  __shared__ unsigned int priv[256];
  long base = blockIdx.x * (long)blockDim.x;
  long i = base;
  i += threadIdx.x;
  long j = i * 4;
  if (j >= n) return;
  priv[threadIdx.x] = 0;
  __syncthreads();
}
extern "C" void histogram_privatized(const unsigned char* in, long n, unsigned int* bins) {
  helper(in, n, bins);
}
)",
                                             "histogram_privatized");
  ASSERT_EQ(exits.size(), 1u) << "the launcher launches nothing by name: every kernel counts";
  EXPECT_EQ(exits[0].condition, "j >= n");
}

// n returns, then the barrier.
std::string many_returns(int n) {
  std::string many = "__global__ void k(float* y) {\n  __shared__ float s[32];\n";
  for (int i = 0; i < n; ++i) {
    many += "  if (threadIdx.x > " + std::to_string(i) + ") return;\n";
  }
  return many + "  __syncthreads();\n}\n";
}

TEST(EarlyExits, ManyReturnsBeforeOneFarBarrierAreReadInOnePass) {
  // Each return's barrier and line are found without a scan from the return to the barrier, or
  // from the file's start to the return.
  const auto exits = early_exits(many_returns(40000));
  EXPECT_LT(input_growth::growth_from_n_to_4n(
                5000, many_returns, [](const std::string& text) { return early_exits(text); }),
            input_growth::k_linear_growth_limit);
  ASSERT_EQ(exits.size(), 40000u);
  EXPECT_EQ(exits.back().return_line, 40002);
  EXPECT_EQ(exits.back().barrier_line, 40003);
}

} // namespace
} // namespace cugrade::grader
