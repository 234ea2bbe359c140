// The full build path at test time: compile errors point at the student's own lines, and code the
// rewriter cannot translate stops the build at the right line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "grader/process/temp_dir.h"
#include "harness/emu/toolchain.h"

namespace {

namespace fs = std::filesystem;

class Compile : public ::testing::Test {
protected:
  cugrade::emu::build_output build(const std::string& name, const std::string& text) {
    std::ofstream(m_dir / name) << text;
    auto out = cugrade::emu::build_submission(m_dir / name, m_dir / (name + ".cpp"),
                                              m_dir / (name + ".so"), EMU_INCLUDE_DIR, EMU_LIB_DIR);
    EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error());
    return out.ok() ? *out : cugrade::emu::build_output{-1, ""};
  }

  cugrade::process::temp_dir m_tmp{"cugrade-emu-compile"};
  fs::path m_dir = m_tmp.path();
};

TEST_F(Compile, CompileErrorNamesTheStudentsLine) {
  const auto out = build("bad.cu", "#include <cuda_runtime.h>\n"
                                   "__global__ void k(float* p) {\n"
                                   "  __shared__ float tile[32];\n"
                                   "  tile[threadIdx.x] = p[threadIdx.x];\n"
                                   "  __syncthreads();\n"
                                   "  p[0] = tile[1] + undefined_name;\n"
                                   "}\n"
                                   "extern \"C\" void run(float* p) { k<<<1, 32>>>(p); }\n");
  EXPECT_NE(out.exit_status, 0);
  EXPECT_NE(out.log.find("bad.cu:6:"), std::string::npos) << out.log;
  EXPECT_NE(out.log.find("undefined_name"), std::string::npos) << out.log;
}

// nvcc gives device code the float and double C math only: `log2(blockDim.x)` (a textbook
// Hillis-Steele loop bound), `sqrt(n)` of an int and `fmax(x, 0.0)` stop its build. So do they
// here, at their lines, while host code and float or double arguments still compile, and a
// file's own `__device__ int ilog2(int)`-style helper named like a math function is its own.
TEST_F(Compile, DeviceMathOfAnIntegerFailsAsWithNvcc) {
  const auto bad = build("scan.cu", "#include <cmath>\n"
                                    "__global__ void k(float* x, int n) {\n"
                                    "  for (int d = 0; d < log2(blockDim.x); ++d) x[d] = 0;\n"
                                    "  x[1] = std::sqrt(n);\n"
                                    "  x[2] = fmax(x[0], 0.0);\n"
                                    "}\n");
  EXPECT_NE(bad.exit_status, 0);
  EXPECT_NE(bad.log.find("scan.cu:3:"), std::string::npos) << bad.log;
  EXPECT_NE(bad.log.find("scan.cu:4:"), std::string::npos) << bad.log;
  EXPECT_NE(bad.log.find("scan.cu:5:"), std::string::npos) << bad.log;
  const auto good = build("ok.cu", "#include <cmath>\n"
                                   "__device__ int round(int v) { return v; }\n"
                                   "__host__ __device__ float hd(int n) { return sqrt(n); }\n"
                                   "__global__ void k(float* x, double* d, int n) {\n"
                                   "  x[0] = sqrt(x[1]) + log2f(blockDim.x) + fmax(x[2], 1.0f) +\n"
                                   "         ceil((float)n / 2) + pow(2, n) + round(n);\n"
                                   "  d[0] = std::exp(d[1]) + fmin(d[2], 0.0) + rsqrt(x[3]) +\n"
                                   "         copysign(x[4], d[3]);\n"
                                   "}\n"
                                   "int host(int n) { return sqrt(n) + log2(n) + fmax(n, 2.0); }\n");
  EXPECT_EQ(good.exit_status, 0) << good.log;
}

// ptxas refuses a kernel with more than 48 KiB of static shared memory ("uses too much shared
// data (0x10010 bytes, 0xc000 max)"); exactly 48 KiB compiles. The build stops at the
// declaration whose array crosses the limit, counted per function (nvcc 13 agrees on both files).
TEST_F(Compile, StaticSharedOverFortyEightKibFailsWhereItCrossesTheLimit) {
  const auto over = build(
      "matmul.cu",
      "#define TILE 64\n"
      "__global__ void k(double* p) {\n"
      "  __shared__ double Mds[TILE][TILE];\n"
      "  __shared__ double Nds[TILE][TILE], extra[2];\n"
      "  Mds[threadIdx.y][threadIdx.x] = p[threadIdx.x]; Nds[threadIdx.y][threadIdx.x] = "
      "p[threadIdx.y]; extra[threadIdx.x % 2] = 1;\n"
      "  __syncthreads();\n"
      "  p[threadIdx.x] = Mds[threadIdx.x][threadIdx.y] + Nds[threadIdx.x][threadIdx.y] + "
      "extra[1];\n"
      "}\n");
  EXPECT_NE(over.exit_status, 0);
  EXPECT_NE(over.log.find("matmul.cu:4:"), std::string::npos) << over.log;
  EXPECT_EQ(over.log.find("matmul.cu:3:"), std::string::npos) << over.log;
  EXPECT_NE(over.log.find("more than 48 KiB"), std::string::npos) << over.log;
  const auto at_limit = build("ok.cu", "__global__ void a(float* p) {\n"
                                       "  __shared__ float s[8192], t[4096];\n"
                                       "  s[threadIdx.x] = p[0]; t[threadIdx.x] = p[1];\n"
                                       "  __syncthreads();\n"
                                       "  p[threadIdx.x] = s[threadIdx.x + 1] + t[threadIdx.x + 1];\n"
                                       "}\n"
                                       "__global__ void b(float* p) {\n"
                                       "  __shared__ float u[12288];\n"
                                       "  extern __shared__ float dyn[];\n"
                                       "  u[threadIdx.x] = dyn[threadIdx.x];\n"
                                       "  __syncthreads();\n"
                                       "  p[threadIdx.x] = u[threadIdx.x + 1];\n"
                                       "}\n"
                                       "template <int N> __global__ void c(float* p) {\n"
                                       "  __shared__ float v[N];\n"
                                       "  v[threadIdx.x] = p[0];\n"
                                       "  __syncthreads();\n"
                                       "  p[threadIdx.x] = v[threadIdx.x + 1];\n"
                                       "}\n"
                                       "template __global__ void c<12288>(float*);\n");
  EXPECT_EQ(at_limit.exit_status, 0) << at_limit.log;
}

TEST_F(Compile, SharedDeclaredThroughAMacroIsTranslatedWhereTheMacroIsExpandedByHand) {
  // nvcc compiles both. The file's own macro is expanded before the rewriter translates the
  // declaration; one defined inside an #if block is left to g++, and the build stops at its use.
  const auto expanded = build("macro.cu", "#define SHARED __shared__\n"
                                          "__global__ void k(float* p) {\n"
                                          "  SHARED float tile[32];\n"
                                          "  p[0] = tile[0];\n"
                                          "}\n");
  EXPECT_EQ(expanded.exit_status, 0) << expanded.log;
  const auto left = build("macro.cu", "#ifndef SHARED\n"
                                      "#define SHARED __shared__\n"
                                      "#endif\n"
                                      "__global__ void k(float* p) {\n"
                                      "  SHARED float tile[32];\n"
                                      "  p[0] = tile[0];\n"
                                      "}\n");
  EXPECT_NE(left.exit_status, 0);
  EXPECT_NE(left.log.find("macro.cu:5:"), std::string::npos) << left.log;
  EXPECT_NE(left.log.find("not translated"), std::string::npos) << left.log;
}

TEST_F(Compile, CallingAnApiTheEmulatorLacksFailsAtLinkTime) {
  const auto out =
      build("graph.cu", "#include <cuda_runtime.h>\n"
                        "extern \"C\" int cudaGraphCreate(void**, unsigned);\n"
                        "extern \"C\" void run() { void* g; cudaGraphCreate(&g, 0); }\n");
  EXPECT_NE(out.exit_status, 0);
  EXPECT_NE(out.log.find("cudaGraphCreate"), std::string::npos) << out.log;
}

} // namespace
