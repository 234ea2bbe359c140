// Which kernels get a region form (harness/emu/detail/region_plan.h) and what it looks like: the
// course's barrier shapes do; anything that waits for other threads another way, leaves early,
// or whose loop over barriers some thread could run differently keeps its fibers.
#include <gtest/gtest.h>

#include <string>

#include "harness/emu/rewrite.h"

namespace {

std::string rewritten(const std::string& text) {
  auto out = cugrade::emu::rewrite_source(text, "k.cu");
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error());
  return out.ok() ? *out : std::string();
}

bool has_form(const std::string& text, const std::string& kernel = "k") {
  return rewritten(text).find("static void __cugrade_regions_" + kernel + "(") != std::string::npos;
}

// The form's text: from its function to the end of its #ifndef block.
std::string form_of(const std::string& text, const std::string& kernel = "k") {
  const std::string out = rewritten(text);
  const std::size_t at = out.find("static void __cugrade_regions_" + kernel + "(");
  return at == std::string::npos ? std::string() : out.substr(at, out.find("#endif", at) - at);
}

const std::string reduction = R"(#define BLOCK 256
__global__ void k(const float* in, float* out, long n) {
  __shared__ float partial[BLOCK];
  const unsigned t = threadIdx.x;
  const long i = blockIdx.x * (long)BLOCK + t;
  partial[t] = i < n ? in[i] : 0.0f;
  for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < stride) partial[t] += partial[t + stride];
  }
  if (t == 0) atomicAdd(out, partial[0]);
}
)";

TEST(RegionForms, TheCourseReductionHasOneWithoutItsBarriers) {
  const std::string form = form_of(reduction);
  ASSERT_FALSE(form.empty());
  EXPECT_EQ(form.find("__syncthreads"), std::string::npos) << form;
  EXPECT_NE(form.find("constexpr bool __cugrade_chk = false;"), std::string::npos) << form;
  // t is kept for the later regions; i is not used after the first.
  EXPECT_NE(form.find("return ::std::tuple<decltype(partial), decltype(t)>(partial, t);"),
            std::string::npos)
      << form;
  EXPECT_NE(form.find("auto& [partial, t] = __cugrade_f0[__cugrade_t];"), std::string::npos)
      << form;
}

TEST(RegionForms, TheFormStartsAtTheKernelsLineAndGivesTheNextLineItsNumberBack) {
  const std::string out = rewritten("// one\n" + reduction + "int after;\n");
  const std::size_t form = out.find("static void __cugrade_regions_k(");
  ASSERT_NE(form, std::string::npos);
  EXPECT_EQ(out.rfind("#line 3 \"k.cu\"\n", form), form - 15) << out;
  EXPECT_NE(out.find("#endif\n#line 13 \"k.cu\"\n\nint after;", form), std::string::npos) << out;
}

TEST(RegionForms, ALoopHeaderMayUseALocalEveryThreadComputesAlike) {
  const std::string text = R"(__global__ void k(const float* M, float* P, int width) {
  __shared__ float Ms[16][16];
  int tiles = (width + 16 - 1) / 16;
  float sum = 0;
  for (int ph = 0; ph < tiles; ++ph) {
    Ms[threadIdx.y][threadIdx.x] = M[ph];
    __syncthreads();
    sum += Ms[threadIdx.x][threadIdx.y];
    __syncthreads();
  }
  P[threadIdx.x] = sum;
})";
  const std::string form = form_of(text);
  ASSERT_FALSE(form.empty());
  // The header runs once per block and takes `tiles` from thread 0's frame.
  EXPECT_NE(form.find("{ [[maybe_unused]] auto& [Ms, tiles, sum] = __cugrade_f0[0]; for"),
            std::string::npos)
      << form;
}

TEST(RegionForms, KernelsThatWaitOrLeaveAnotherWayKeepTheirFibers) {
  const std::string head = "__global__ void k(float* a, int n) {\n  __shared__ float s[64];\n";
  const std::string kept[] = {
      // an early return, a barrier under a condition, a barrier in a loop of a loop
      "  if (threadIdx.x >= n) return;\n  __syncthreads();\n",
      "  if (threadIdx.x < 32) { __syncthreads(); }\n",
      "  for (int i = 0; i < 4; ++i) { for (int j = 0; j < 4; ++j) { __syncthreads(); } }\n",
      // loops some thread could run differently
      "  for (int i = threadIdx.x; i < 64; i += 32) { __syncthreads(); }\n",
      "  int mine = threadIdx.x;\n  for (int i = 0; i < mine; ++i) { __syncthreads(); }\n",
      "  for (int i = 0; i < 4; ++i) { __syncthreads(); i += a[0] > 0; }\n",
      "  int i = 0;\n  while (i < 4) { __syncthreads(); ++i; }\n",
      "  for (int i = 0; i < n; ++i) { __syncthreads(); if (a[i] > 0) break; }\n",
      "  for (int i = 0; i < s[0]; ++i) { __syncthreads(); }\n",
      // waiting for other threads without a barrier
      "  float v = __shfl_down_sync(0xffffffff, a[0], 1);\n  __syncthreads();\n  a[0] = v;\n",
      "  while (atomicCAS((int*)a, 0, 1) != 0) {}\n  __syncthreads();\n",
      "  volatile float* vs = s;\n  vs[threadIdx.x] += 1;\n  __syncthreads();\n",
      "  __syncthreads();\n  __syncwarp();\n",
      // a parameter every thread would share, a local whose address outlives its region
      "  n = n * 2;\n  __syncthreads();\n  a[0] = n;\n",
      "  float x = 1;\n  float* p = &x;\n  __syncthreads();\n  a[0] = *p;\n",
      // a local array, a local type, a lambda that may hold a region's local past its end
      "  float r[4] = {0};\n  __syncthreads();\n  a[0] = r[1];\n",
      "  float x = a[0];\n  auto add = [&](float v) { x += v; };\n  __syncthreads();\n"
      "  add(a[1]);\n  a[2] = x;\n",
      "  struct P { int x; };\n  P p{1};\n  __syncthreads();\n  a[0] = p.x;\n"};
  for (const std::string& middle : kept) {
    EXPECT_FALSE(has_form(head + middle + "}\n")) << middle;
  }
}

TEST(RegionForms, WhatAKernelCallsOrExpandsIsLookedIntoToo) {
  EXPECT_FALSE(has_form("__device__ void step(volatile float* s) { s[0] += s[1]; }\n"
                        "__global__ void k(float* a) { __shared__ float s[64];\n"
                        "  __syncthreads();\n  step(s);\n}\n"));
  EXPECT_FALSE(has_form("__device__ void sync_all() { __syncthreads(); }\n"
                        "__global__ void k(float* a) { __syncthreads();\n  sync_all();\n}\n"));
  EXPECT_FALSE(has_form("__device__ void twice(int& n) { n *= 2; }\n"
                        "__global__ void k(float* a, int n) { __syncthreads();\n  twice(n);\n}\n"));
  EXPECT_FALSE(has_form("#define SYNC __syncthreads()\n"
                        "__global__ void k(float* a) { SYNC;\n  a[0] = 1;\n  SYNC;\n}\n"));
  EXPECT_TRUE(has_form("__device__ float twice(float x) { return 2 * x; }\n#define HALF 32\n"
                       "__global__ void k(float* a) { __shared__ float s[64];\n"
                       "  s[threadIdx.x] = twice(a[threadIdx.x]);\n  __syncthreads();\n"
                       "  for (int i = 0; i < HALF; ++i) { __syncthreads(); }\n}\n"));
}

TEST(RegionForms, AnEmptyKernelHasAnEmptyForm) {
  EXPECT_TRUE(has_form("__global__ void k() {}\n"));
}

TEST(RegionForms, TemplatesAndOverloadsHaveNone) {
  EXPECT_FALSE(has_form("template <int B> __global__ void k(float* a) { __syncthreads(); }\n"));
  EXPECT_FALSE(has_form("__global__ void k(float* a) { __syncthreads(); }\n"
                        "__global__ void k(int* a) { __syncthreads(); }\n"));
}

// Without a barrier the form is a single region, where a `return` ends its thread as it would.
TEST(RegionForms, AKernelWithoutBarriersIsOneRegionEvenWithAnEarlyReturn) {
  const std::string form = form_of("__global__ void k(float* a, int n) {\n"
                                   "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "  if (i >= n) return;\n  a[i] = 2 * a[i];\n}\n");
  ASSERT_FALSE(form.empty());
  EXPECT_NE(form.find("region_each([&]([[maybe_unused]] unsigned __cugrade_t) { const int i"),
            std::string::npos)
      << form;
}

} // namespace
