// The unrolled last warp without volatile or __syncwarp that diagnosis reads in a submission's
// source (warp_steps.h), in the idioms of the reduction slides and of students' kernels.
#include "grader/core/warp_steps.h"
#include "tests/core/input_growth.h"

#include <gtest/gtest.h>

#include <string>

namespace cugrade::grader {
namespace {

// The slides' warpReduce helper, its `volatile` dropped; two kernels, one launcher each.
constexpr const char* k_two_kernels = R"(#include <cuda_runtime.h>
#define BLOCK 256
__device__ void warpReduce(float* sdata, unsigned int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  // sdata[tid] += sdata[tid + 8]; (in a comment: not code)
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
}
__device__ void warpReduceVolatile(volatile float* sdata, unsigned int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
}
__global__ void reduce_plain(const float* in, float* out) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  if (tid < 32) warpReduce(sdata, tid);
}
__global__ void reduce_volatile(const float* in, float* out) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  if (tid < 32) warpReduceVolatile(sdata, tid);
}
extern "C" void reduce_convergent(const float* input, long n, float* result) {
  reduce_plain<<<1, BLOCK>>>(input, result);
}
extern "C" void reduce_interleaved(const float* input, long n, float* result) {
  reduce_volatile<<<1, BLOCK>>>(input, result);
}
)";

TEST(WarpSteps, TheSlidesLastWarpWithoutVolatileIsOneRunAtItsFirstStep) {
  const auto runs = unsynced_warp_steps(k_two_kernels);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].function, "warpReduce");
  EXPECT_EQ(runs[0].array, "sdata");
  EXPECT_EQ(runs[0].first_line, 4);
  EXPECT_EQ(runs[0].last_line, 8);
  EXPECT_EQ(runs[0].count, 4);
  EXPECT_EQ(runs[0].first_step, "sdata[tid] += sdata[tid + 32]");
}

TEST(WarpSteps, OnlyTheCodeALauncherRunsCounts) {
  EXPECT_EQ(unsynced_warp_steps_of_launcher(k_two_kernels, "reduce_convergent").size(), 1u);
  EXPECT_TRUE(unsynced_warp_steps_of_launcher(k_two_kernels, "reduce_interleaved").empty());
  // A launcher whose launches cannot be found: the whole file's.
  EXPECT_EQ(unsynced_warp_steps_of_launcher(k_two_kernels, "no_such_launcher").size(), 1u);
}

std::string kernel_with(const std::string& body) {
  return "__global__ void k(float* out) {\n  __shared__ float s[64];\n  unsigned t = "
         "threadIdx.x;\n" +
         body + "}\n";
}

TEST(WarpSteps, StepsInlineInTheKernelAreFound) {
  // Inline under `if (tid < 32)`, the second form of a step.
  auto runs = unsynced_warp_steps(kernel_with("  if (t < 32) {\n    s[t] = s[t] + s[t + 32];\n"
                                              "    s[t] = s[t + 16] + s[t];\n  }\n"));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].count, 2);
  EXPECT_EQ(runs[0].first_line, 5);
  EXPECT_EQ(runs[0].first_step, "s[t] = s[t] + s[t + 32]");
  // The slides' templated form, inline, over dynamic shared memory.
  runs = unsynced_warp_steps("template <unsigned int blockSize>\n"
                             "__global__ void reduce6(const int* in, int* out) {\n"
                             "  extern __shared__ int sdata[];\n  unsigned int tid = threadIdx.x;\n"
                             "  if (tid < 32) {\n"
                             "    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];\n"
                             "    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];\n  }\n}\n");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].array, "sdata");
  EXPECT_EQ(runs[0].first_line, 6);
  EXPECT_EQ(runs[0].last_line, 7);
}

TEST(WarpSteps, SynchronisedVolatileOrPrivateStepsAreNotFound) {
  const std::vector<std::string> kept = {
      // __syncwarp() between the steps
      kernel_with("  s[t] += s[t + 16];\n  __syncwarp();\n  s[t] += s[t + 8];\n"),
      // the tree: a barrier in the loop's body
      kernel_with("  for (int d = 32; d > 0; d >>= 1) {\n    if (t < d) s[t] += s[t + d];\n"
                  "    __syncthreads();\n  }\n"),
      // a cooperative group's sync
      kernel_with("  s[t] += s[t + 16];\n  g.sync();\n  s[t] += s[t + 8];\n"),
      // one step alone, and one in a loop: a tree missing its barrier (a race both backends
      // report), a Brent-Kung up-sweep, a serial scan; not the unrolled warp
      kernel_with("  s[t] += s[t + 16];\n"),
      kernel_with("  for (int d = 32; d > 0; d >>= 1) {\n    if (t < d) s[t] += s[t + d];\n  }\n"),
      kernel_with("  if (t == 0)\n    for (int b = 1; b < 64; b++) s[b] += s[b - 1];\n"),
      // one thread's serial work on constant indices
      kernel_with("  if (t == 0) {\n    s[1] += s[0];\n    s[2] += s[1];\n  }\n"),
      // the same index: a lane adding to its own element
      kernel_with("  s[t] += s[t];\n  s[t] += s[t];\n"),
      // a thread's own registers: neither shared nor a parameter
      "__global__ void k() {\n  float acc[4] = {};\n  acc[0] += acc[1];\n  acc[0] += acc[2];\n}\n",
      // declared volatile
      "__global__ void k() {\n  __shared__ volatile float s[64];\n  unsigned t = threadIdx.x;\n"
      "  s[t] += s[t + 16];\n  s[t] += s[t + 8];\n}\n",
  };
  for (const std::string& source : kept) {
    EXPECT_TRUE(unsynced_warp_steps(source).empty()) << source;
  }
}

TEST(WarpSteps, HostileNestingGrowsLinearly) {
  const auto hostile = [](int n) {
    std::string text = "__global__ void k(float* s) {\n";
    for (int i = 0; i < n; ++i) {
      text += "s[s[s[(f(";
    }
    return text + "\n}\n";
  };
  EXPECT_TRUE(unsynced_warp_steps(hostile(20000)).empty());
  EXPECT_LT(input_growth::growth_from_n_to_4n(2500, hostile, unsynced_warp_steps),
            input_growth::k_linear_growth_limit);
}

// Steps in n functions, each a run of one, then one run of two in g: every step looks up its line.
std::string many_steps(int n) {
  std::string many = "__shared__ float s[64];\n";
  for (int i = 0; i < n; ++i) {
    many += "__device__ void f" + std::to_string(i) + "(int t) {\n  s[t] += s[t + 1];\n}\n";
  }
  return many + "__device__ void g(int t) {\n  s[t] += s[t + 2];\n  s[t] += s[t + 1];\n}\n";
}

TEST(WarpSteps, AFileOfManyStepsIsReadInOnePass) {
  const auto runs = unsynced_warp_steps(many_steps(50000));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].function, "g");
  EXPECT_EQ(runs[0].first_line, 150003);
  EXPECT_LT(input_growth::growth_from_n_to_4n(2500, many_steps, unsynced_warp_steps),
            input_growth::k_linear_growth_limit);
}

} // namespace
} // namespace cugrade::grader
