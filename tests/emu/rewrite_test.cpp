// The rewriter: launches and __shared__ declarations are translated, nothing else moves, and every
// line stays where it was.
#include "harness/emu/detail/macro_expansion.h"
#include "harness/emu/rewrite.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

// The rewritten text without the region forms inserted after kernels (each ends with a #line
// directive that gives the following text its line back).
std::string without_region_forms(std::string out) {
  const std::string start = "\n#ifndef CUGRADE_EMU_NO_REGIONS\n";
  for (std::size_t at = out.find(start); at != std::string::npos; at = out.find(start, at)) {
    const std::size_t endif = out.find("\n#endif\n#line ", at);
    const std::size_t end = out.find('\n', endif + 9);
    out.erase(at, end + 1 - at);
  }
  return out;
}

// The rewrite of `text`, less the region forms (region_forms_test.cpp looks at those).
std::string rewrite(const std::string& text) {
  auto out = cugrade::emu::rewrite_source(text, "k.cu");
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error());
  return out.ok() ? without_region_forms(*out) : std::string();
}

// The rewritten text without its #line header.
std::string body(const std::string& text) {
  const std::string out = rewrite(text);
  return out.substr(out.find('\n') + 1);
}

long newlines(const std::string& s) {
  return std::count(s.begin(), s.end(), '\n');
}

TEST(RewriteSource, StartsWithLineDirectiveNamingTheFile) {
  const std::string out = rewrite("int x;\n");
  EXPECT_EQ(out.rfind("#line 1 \"k.cu\"\n", 0), 0u) << out;
}

TEST(RewriteSource, TranslatesSimpleLaunch) {
  EXPECT_EQ(body("k<<<g, b>>>(x, y);"),
            "::cugrade::emu::launch(k, \"k\", __FILE__, __LINE__, g, b)(x, y);");
}

TEST(RewriteSource, TranslatesLaunchWithSharedBytesAndStream) {
  EXPECT_EQ(body("k<<<g, b, n * 4, 0>>>(p);"),
            "::cugrade::emu::launch(k, \"k\", __FILE__, __LINE__, g, b, n * 4, 0)(p);");
}

TEST(RewriteSource, TranslatesQualifiedAndTemplatedKernelNames) {
  EXPECT_EQ(body("ns::k<<<1, 2>>>(p);"),
            "::cugrade::emu::launch(ns::k, \"ns::k\", __FILE__, __LINE__, 1, 2)(p);");
  EXPECT_EQ(body("::a::b::k<<<1, 2>>>(p);"),
            "::cugrade::emu::launch(::a::b::k, \"::a::b::k\", __FILE__, __LINE__, 1, 2)(p);");
  EXPECT_EQ(body("k<16><<<1, 2>>>(p);"),
            "::cugrade::emu::launch(k<16>, \"k<16>\", __FILE__, __LINE__, 1, 2)(p);");
  EXPECT_EQ(body("k<float, A<int>> <<<1, 2>>>(p);"),
            "::cugrade::emu::launch(k<float, A<int>> , \"k<float,A<int>>\", __FILE__, __LINE__, "
            "1, 2)(p);");
}

TEST(RewriteSource, KeepsEveryLineOfAMultiLineLaunch) {
  const std::string src = "void f() {\n  k<<<\n    grid,\n    block>>>(a,\n  b);\n}\nint z;\n";
  const std::string out = body(src);
  EXPECT_EQ(newlines(out), newlines(src));
  EXPECT_NE(out.find("launch(k, \"k\", __FILE__, __LINE__, \n    grid,\n    block)(a,\n  b);"),
            std::string::npos)
      << out;
}

TEST(RewriteSource, LeavesCommentsStringsAndCharactersAlone) {
  const std::string src =
      "// k<<<1,1>>>(x);\n/* __shared__ int a[2]; */\nconst char* s = "
      "\"k<<<1,1>>>() __shared__\";\nchar c = '<';\nauto r = R\"(k<<<1,1>>>)\";\n";
  EXPECT_EQ(body(src), src);
}

TEST(RewriteSource, IgnoresIncludeLinesAndShiftOperators) {
  const std::string src = "#include <cuda_runtime.h>\nint a = b << 2 >> 1;\n";
  EXPECT_EQ(body(src), src);
}

TEST(RewriteSource, TranslatesFunctionScopeSharedArrays) {
  EXPECT_EQ(body("void k() { __shared__ float Mds[16][16]; }"),
            "void k() { auto& Mds = ::cugrade::emu::block_shared<float [ 16 ] [ 16 ], 0>(\"Mds\", "
            "\"float\"); }");
  EXPECT_EQ(body("void k() { __shared__ unsigned int local_histo[256]; }"),
            "void k() { auto& local_histo = ::cugrade::emu::block_shared<unsigned int [ 256 ], "
            "0>(\"local_histo\", \"unsigned int\"); }");
}

TEST(RewriteSource, TranslatesScalarsVolatileAndSeveralDeclarators) {
  EXPECT_EQ(body("void k() { __shared__ int x; }"),
            "void k() { auto& x = ::cugrade::emu::block_shared<int, 0>(\"x\", \"int\"); }");
  EXPECT_EQ(body("void k() { volatile __shared__ float s[64]; }"),
            "void k() { auto& s = ::cugrade::emu::block_shared<volatile float [ 64 ], 0>(\"s\", "
            "\"volatile float\"); }");
  EXPECT_EQ(body("void k() { __shared__ float a[4], b[8]; }"),
            "void k() { auto& a = ::cugrade::emu::block_shared<float [ 4 ], 0>(\"a\", \"float\"); "
            "auto& b = ::cugrade::emu::block_shared<float [ 8 ], 1>(\"b\", \"float\"); }");
  EXPECT_EQ(
      body("void k() { __shared__ __align__(16) float v[4]; }"),
      "void k() { auto& v = ::cugrade::emu::block_shared<float [ 4 ], 0>(\"v\", \"float\"); }");
}

// nvcc limits a kernel's static shared memory to 48 KiB: each static array of a device function
// is followed by a check of the function's sum so far (extern arrays are sized at launch).
TEST(RewriteSource, ChecksEachDeviceFunctionsStaticSharedBytes) {
  const std::string out = body("__global__ void k() { __shared__ float a[4], b[8];\n"
                               "  extern __shared__ float d[]; }\n"
                               "__device__ void m() { __shared__ int c[2]; }\n");
  EXPECT_NE(out.find("static_assert(sizeof(float [ 4 ]) <= 48 * 1024"), std::string::npos) << out;
  EXPECT_NE(out.find("static_assert(sizeof(float [ 4 ]) + sizeof(float [ 8 ]) <= 48 * 1024"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("static_assert(sizeof(int [ 2 ]) <= 48 * 1024"), std::string::npos) << out;
  EXPECT_EQ(out.find("sizeof(float [ ]"), std::string::npos) << out;
  EXPECT_EQ(out.find("sizeof(float [ 8 ]) + sizeof(int"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 3) << "lines stay where they were";
}

TEST(RewriteSource, TranslatesExternSharedToDynamicMemory) {
  EXPECT_EQ(
      body("void k() { extern __shared__ float s[]; }"),
      "void k() { auto* const s = ::cugrade::emu::dynamic_shared<float>(\"s\", \"float\"); }");
}

// nvcc: "declaration is incompatible with previous" for one dynamic shared name of two types.
TEST(RewriteSource, RejectsOneExternSharedNameWithTwoTypesAsNvccDoes) {
  const auto out =
      cugrade::emu::rewrite_source("__global__ void a() { extern __shared__ float sdata[]; }\n"
                                   "__global__ void b() { extern __shared__ float sdata[]; }\n"
                                   "__global__ void c() {\n  extern __shared__ int sdata[];\n}\n",
                                   "reduction.cu");
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().find("reduction.cu:4:"), std::string::npos) << out.error();
  EXPECT_NE(out.error().find("`sdata` is declared here as `int` and at line 1 as `float`"),
            std::string::npos)
      << out.error();
  // The same type everywhere, or another name for another type, is one array as nvcc sees it.
  EXPECT_TRUE(cugrade::emu::rewrite_source("__global__ void a() { extern __shared__ float s[]; }\n"
                                           "__global__ void b() { extern __shared__ float s[]; }\n"
                                           "__global__ void c() { extern __shared__ int t[]; }\n",
                                           "reduction.cu")
                  .ok());
}

// nvcc: "calling a __host__ function from a __global__ function is not allowed", and the same for
// the C++ library's constexpr min/max/swap/clamp/numeric_limits. g++ would compile both.
TEST(RewriteSource, RejectsDeviceCodeCallingAHostFunctionAsNvccDoes) {
  const auto host = cugrade::emu::rewrite_source(
      "#include <cuda_runtime.h>\nfloat sq(float x) { return x * x; }\n"
      "__global__ void k(float* p) {\n  p[0] = sq(p[0]);\n}\n",
      "reduction.cu");
  ASSERT_FALSE(host.ok());
  EXPECT_NE(host.error().find("reduction.cu:4: `sq` is a host function (line 2 declares it "
                              "without __device__)"),
            std::string::npos)
      << host.error();
  const auto library = cugrade::emu::rewrite_source(
      "__global__ void k(float* p) { p[0] = std::max(p[0], p[1]); }\n", "reduction.cu");
  ASSERT_FALSE(library.ok());
  EXPECT_NE(library.error().find("reduction.cu:1: std::max is a host function"), std::string::npos)
      << library.error();
  const auto exchange = cugrade::emu::rewrite_source(
      "__global__ void k(float* p) {\n  p[0] = std::exchange(p[1], 0.0f);\n}\n", "reduction.cu");
  ASSERT_FALSE(exchange.ok());
  EXPECT_NE(exchange.error().find("reduction.cu:2: std::exchange is a host function"),
            std::string::npos)
      << exchange.error();
  // nvcc 13 compiles the declaration and stops at `acc[0]` (operator[] is a constexpr host
  // function); nothing can be done with a std::array in a kernel without its members.
  const auto array = cugrade::emu::rewrite_source(
      "#include <array>\n__global__ void k(float* p) {\n  std::array<float, 4> acc{};\n"
      "  acc[0] = p[0];\n  p[1] = acc[0];\n}\n",
      "matmul.cu");
  ASSERT_FALSE(array.ok());
  EXPECT_NE(array.error().find("matmul.cu:3: std::array's operator[] and members are host "
                               "functions"),
            std::string::npos)
      << array.error();
  EXPECT_NE(array.error().find("use a plain array"), std::string::npos) << array.error();
  // What nvcc accepts: device and host-device helpers (also through a macro of the file), a name
  // with a __device__ overload, members, host code calling host functions, CUDA's math in std,
  // and the C++ library's constexpr functions in a __host__ __device__ function (a warning).
  EXPECT_TRUE(cugrade::emu::rewrite_source(
                  "#define HD __host__ __device__\n"
                  "__device__ float a(float x) { return x; }\n"
                  "__host__ __device__ float b(float x) { return x; }\n"
                  "HD float c(float x) { return x; }\n"
                  "float d(float x) { return x; }\n__device__ float d(int x) { return x; }\n"
                  "float e(float x) { return x; }\n"
                  "struct S { __device__ float e(float x) const { return x; } };\n"
                  "void host() { e(1.0f); std::array<float, 2> h{}; h[0] = 1; }\n"
                  "__host__ __device__ float hd(float x) { std::array<float, 1> a{x}; "
                  "return std::max(a[0], 0.0f); }\n"
                  "__global__ void k(float* p, S s) { p[0] = a(p[0]) + b(p[1]) + c(p[2]) + d(3) + "
                  "s.e(p[4]) + std::sqrt(p[5]) + std::abs(p[6]) + min(1, 2); }\n",
                  "reduction.cu")
                  .ok());
}

// nvcc: "identifier "M" is undefined in device code" for a variable that lives only on the host:
// the mask whose __constant__ was forgotten, a size kept in a global int, a const array. g++
// would compile each. Every form below was compiled with nvcc 13.
TEST(RewriteSource, RejectsDeviceCodeUsingAHostVariableAsNvccDoes) {
  const auto mask =
      cugrade::emu::rewrite_source("#define MASK_WIDTH 5\nfloat M[MASK_WIDTH * MASK_WIDTH];\n"
                                   "__global__ void conv(const float* in, float* out, int w) {\n"
                                   "  out[0] = in[0] * M[threadIdx.x % 25];\n}\n",
                                   "convolution.cu");
  ASSERT_FALSE(mask.ok());
  EXPECT_NE(mask.error().find("convolution.cu:4: `M` is a host variable (line 2 declares it "
                              "without __device__ or __constant__)"),
            std::string::npos)
      << mask.error();
  const auto size = cugrade::emu::rewrite_source(
      "int N = 1024, *d_A;\n__global__ void k(float* p, int row) {\n  int i = row * N + 1;\n"
      "  p[i] = 0;\n}\n",
      "matmul.cu");
  ASSERT_FALSE(size.ok());
  EXPECT_NE(size.error().find("matmul.cu:3: `N` is a host variable (line 1"), std::string::npos)
      << size.error();
  const auto table = cugrade::emu::rewrite_source(
      "const int offsets[4] = {1, 2, 3, 4};\n__device__ int f(int i) { return offsets[i]; }\n",
      "histogram.cu");
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.error().find("histogram.cu:2: `offsets` is a host variable"), std::string::npos)
      << table.error();
  const auto pointer = cugrade::emu::rewrite_source(
      "float *d_ptr;\n__global__ void k(float* o) { o[0] = d_ptr[0]; }\n", "k.cu");
  EXPECT_FALSE(pointer.ok());
  // What nvcc accepts: device, constant and managed variables (also through a macro of the file),
  // const and constexpr scalars, parameters and locals of the same name (declared in any of the
  // ways below), sizeof, members, names in host code, lambdas and struct members.
  EXPECT_TRUE(cugrade::emu::rewrite_source(
                  "#define DEV __device__\n"
                  "__constant__ float Mc[9];\n__device__ int counter;\nDEV float table[4];\n"
                  "const int TILE = 16;\nconstexpr float SCALE = 2.0f;\nstatic const int K = 3;\n"
                  "int n, N, width, *list, total;\nfloat host_only[4];\n"
                  "struct S { int n; __device__ int get() const { return n; } };\n"
                  "__global__ void a(int* o, int n) { o[0] = n + TILE + K + (int)SCALE; }\n"
                  "__global__ void b(int* o) { int N = 3; o[N] = sizeof(host_only) + "
                  "sizeof host_only; }\n"
                  "__global__ void c(float* o) { for (int i = 0, width = 4; i < width; ++i) "
                  "o[i] = Mc[i] + table[i] + counter; }\n"
                  "__global__ void d(int* o) { int *list = o, total; total = list[0]; o[1] = "
                  "total; }\n"
                  "__global__ void e(S s, int* o) { o[0] = s.get(); }\n"
                  "template <int width>\n__global__ void t(int* o) { o[0] = width; }\n"
                  "void host() { n = 1; host_only[0] = 2; }\n",
                  "k.cu")
                  .ok());
}

// Device code's C math goes to the emulator's float-and-double overloads (compile_test.cpp
// shows what that refuses); host code, __host__ __device__ functions, the file's own functions,
// members and assert conditions keep theirs, and lines stay put.
TEST(RewriteSource, SendsDeviceCodesMathToTheDeviceOverloads) {
  const std::string out =
      body("__global__ void k(int n) { float v = sqrt(n) + std::\nlog2(n); }\n"
           "void h(int n) { sqrt(n); }\n"
           "__host__ __device__ float hd(int n) { return sqrt(n); }\n"
           "__device__ int ceil(int v) { return v; }\n"
           "__device__ int c(S s, int v) { assert(floor(v) >= 0); return ceil(v) + s.exp(v); }\n");
  EXPECT_NE(out.find("float v = ::cugrade::emu::device_cmath::sqrt(n) + "
                     "::cugrade::emu::device_cmath::log2\n(n);"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("void h(int n) { sqrt(n); }"), std::string::npos) << out;
  EXPECT_NE(out.find("float hd(int n) { return sqrt(n); }"), std::string::npos) << out;
  EXPECT_NE(out.find("assert(floor(v) >= 0); return ceil(v) + s.exp(v);"), std::string::npos)
      << out;
  EXPECT_EQ(newlines(out), 6);
}

// The SM's cycle counter in device code; host code's clock() stays the C library's (which the
// symbol policy forbids in launchers, on both backends).
TEST(RewriteSource, SendsDeviceCodesClockToTheCycleCounter) {
  const std::string out = body("__global__ void k(long long* t) { t[0] = clock64() - clock(); }\n"
                               "void h() { long c = clock(); }\n");
  EXPECT_NE(out.find("::cugrade::emu::device_cmath::clock64() - "
                     "::cugrade::emu::device_cmath::clock();"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("void h() { long c = clock(); }"), std::string::npos) << out;
}

TEST(RewriteSource, TranslatesFileScopeShared) {
  EXPECT_EQ(body("__shared__ int tile[8][8];\n"),
            "static ::cugrade::emu::file_shared<int [ 8 ] [ 8 ], 0> tile{\"tile\", \"int\"};\n");
  EXPECT_EQ(body("namespace n {\nextern __shared__ float buf[];\n}\n"),
            "namespace n {\nstatic ::cugrade::emu::file_dynamic_shared<float> buf{\"buf\", "
            "\"float\"};\n}\n");
  EXPECT_EQ(body("extern \"C\" void f() { __shared__ int s; }"),
            "extern \"C\" void f() { auto& s = ::cugrade::emu::block_shared<int, 0>(\"s\", "
            "\"int\"); }");
}

TEST(RewriteSource, KeepsLinesOfASharedDeclarationSpanningLines) {
  const std::string src = "void k() {\n  __shared__ float\n    tile[16]\n    [16];\n  int x;\n}\n";
  const std::string out = body(src);
  EXPECT_EQ(newlines(out), newlines(src));
  EXPECT_NE(out.find("auto& tile"), std::string::npos);
  EXPECT_NE(out.find("\n\n\n  int x;"), std::string::npos) << out;
}

TEST(RewriteSource, SpellsNoinlineAsAnAttribute) {
  EXPECT_EQ(body("__device__ __noinline__ int f();"),
            "__device__ __attribute__((noinline)) int f();");
}

TEST(RewriteSource, RejectsSharedInitializerNamingTheLine) {
  const auto out =
      cugrade::emu::rewrite_source("int a;\nvoid k() {\n  __shared__ int x = 3;\n}\n", "bad.cu");
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().find("bad.cu:3:"), std::string::npos) << out.error();
  EXPECT_NE(out.error().find("initializer"), std::string::npos) << out.error();
}

TEST(RewriteSource, RejectsLaunchWithoutKernelName) {
  const auto out = cugrade::emu::rewrite_source("void f() {\n  (*p)<<<1, 1>>>();\n}\n", "bad.cu");
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().find("bad.cu:2:"), std::string::npos) << out.error();
}

TEST(RewriteSource, RejectsLaunchWithoutClosingBrackets) {
  const auto out = cugrade::emu::rewrite_source("void f() {\n  k<<<1, 1(x);\n}\n", "bad.cu");
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().find("bad.cu:2:"), std::string::npos) << out.error();
}

TEST(RewriteSource, PreservesLineCountOfTheReferenceKernels) {
  for (const char* name : {"matmul.cu", "histogram.cu", "reduction.cu"}) {
    const std::string path = std::string(CUGRADE_SOURCE_DIR) + "/reference/" + name;
    FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
      continue; // the reference solutions may not exist in every checkout
    }
    std::string text;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) {
      text.append(buf, n);
    }
    std::fclose(f);
    const std::string out = body(text);
    EXPECT_EQ(newlines(out), newlines(text)) << name;
    EXPECT_EQ(out.find("<<<"), std::string::npos) << name;
    EXPECT_NE(out.find("::cugrade::emu::launch("), std::string::npos) << name;
  }
}

} // namespace

namespace access_rewrite {

const std::string flag = " [[maybe_unused]] const bool __cugrade_chk = "
                         "::cugrade::emu::detail::checking_shared();";

// `(flag ? f(lvalue, true, line) : f(lvalue, false, line))`: the same lvalue, checked in checked
// blocks (and stepped by its warp when it is volatile, in every block).
std::string checked(const char* function, const std::string& lvalue, int line) {
  const std::string call = "::cugrade::emu::detail::" + std::string(function) + "(" + lvalue;
  return "(__cugrade_chk ? " + call + ", true, " + std::to_string(line) + ") : " + call +
         ", false, " + std::to_string(line) + "))";
}
std::string read(const std::string& lvalue, int line = 1) {
  return checked("shared_read", lvalue, line);
}
// A store's target: `f(lvalue, flag, line)` (an assignment to a conditional volatile lvalue has a
// g++ warning of its own).
std::string stored(const char* function, const std::string& lvalue, int line) {
  return "::cugrade::emu::detail::" + std::string(function) + "(" + lvalue + ", __cugrade_chk, " +
         std::to_string(line) + ")";
}
std::string write(const std::string& lvalue, int line = 1) {
  return stored("shared_write", lvalue, line);
}
std::string update(const std::string& lvalue, int line = 1) {
  return stored("shared_update", lvalue, line);
}

TEST(RewriteAccesses, SubscriptsInDeviceCodeReadWriteOrUpdateTheSameLvalue) {
  EXPECT_EQ(body("__global__ void k(float* a, int* b) { a[i] = a[i + 1] * b[j][2]; }"),
            "__global__ void k(float* a, int* b) {" + flag + " " + write("a[i]") + " = " +
                read("a[i + 1]") + " * " + read("b[j][2]") + "; }");
  EXPECT_EQ(body("__device__ void f(float* s) { s[t] += 1; ++s[u]; s[v]--; s[w] == 0; }"),
            "__device__ void f(float* s) {" + flag + " " + update("s[t]") + " += 1; ++" +
                update("s[u]") + "; " + update("s[v]") + "--; " + read("s[w]") + " == 0; }");
  // A subscript holding another is wrapped whole; the inner one is translated in place.
  EXPECT_EQ(body("__global__ void k(int* s) { s[s[0]] <<= 1; }"),
            "__global__ void k(int* s) {" + flag + " ::cugrade::emu::detail::shared_update(s[" +
                read("s[0]") + "], __cugrade_chk, 1) <<= 1; }");
}

// `bins[x] = bins[x] + 1` is a read-modify-write as `bins[x] += 1` is (a GPU's warp loses
// updates in both); an assignment whose right side reads another element is a store.
TEST(RewriteAccesses, AnAssignmentReadingTheElementItStoresIsAnUpdate) {
  EXPECT_EQ(body("__global__ void k(unsigned* h, int* v) { h[v[i]] = h[v[i]] + 1; h[j] = h[j+1]; "
                 "}"),
            "__global__ void k(unsigned* h, int* v) {" + flag +
                " ::cugrade::emu::detail::shared_update(h[" + read("v[i]") +
                "], __cugrade_chk, 1) = " + stored("shared_read", "h[" + read("v[i]") + "]", 1) +
                " + 1; " + write("h[j]") + " = " + read("h[j+1]") + "; }");
  EXPECT_EQ(body("__global__ void k(float* s) { s[t] = f(s[t], 2), s[u] = 1; }"),
            "__global__ void k(float* s) {" + flag + " " + update("s[t]") + " = f(" + read("s[t]") +
                ", 2), " + write("s[u]") + " = 1; }");
}

// `*result += s[0]` at a statement's start is the same read-modify-write as `result[0] += s[0]`,
// and `*p = 3` the same store as `p[0] = 3`; a product and a declarator are left alone.
TEST(RewriteAccesses, ACompoundAssignmentThroughAPointerIsAnUpdate) {
  EXPECT_EQ(body("__global__ void k(float* r, float* p) { if (t == 0) *r += 2; *p -= 1; "
                 "float x = a * b; *p = 3; float *q = p; x *= 2; }"),
            "__global__ void k(float* r, float* p) {" + flag + " if (t == 0) " + update("*r") +
                " += 2; " + update("*p") + " -= 1; float x = a * b; " + write("*p") +
                " = 3; float *q = p; x *= 2; "
                "}");
}

// A student's single result, `*sum = partial[0]`, and a value read through a pointer: loads and
// stores a GPU makes through the pointer, so a host pointer faults there (memory_reach.cpp).
TEST(RewriteAccesses, LoadsAndStoresThroughAPointerAreAccesses) {
  EXPECT_EQ(body("__global__ void k(const float* in, float* out, int* n) { float v = *in; "
                 "if (threadIdx.x == 0) *out = v + *(in + 1); while (*n > 0) (*n)--; if (i < *n) {} v = fmaxf(v, *in); "
                 "return; }"),
            "__global__ void k(const float* in, float* out, int* n) {" + flag +
                " float v = " + read("*in") + "; if (threadIdx.x == 0) " + write("*out") +
                " = v + " + read("*(in + 1)") + "; while (" + read("*n") + " > 0) (" +
                update("*n") + ")--; if (i < " + read("*n") + ") {} v = fmaxf(v, " + read("*in") +
                "); return; }");
}

// Where the `*` may be a product, a declarator or a pointer's increment, or applies to more than
// a name, nothing changes: a missed check, never a program that no longer compiles.
TEST(RewriteAccesses, ProductsDeclaratorsAndPointerIncrementsStayAsWritten) {
  const std::string kept =
      "__global__ void k(float* p, float** pp, S* s) { float a = b * c, *q = p; "
      "int i = j++ * 2; float x = (a + b) * c; float y = *p++; vector<int> *v = 0; "
      "int z = sizeof(*p); float w = *s->f; float u = *pp[1]; void (*f)(int) = 0; (*f)(1); "
      "float t = 2 * *p; (*s).f = 0; for (int i = 0, *k = 0; i < 1; ++i) {} }";
  EXPECT_EQ(body(kept), "__global__ void k(float* p, float** pp, S* s) {" + flag +
                            " float a = b * c, *q = p; int i = j++ * 2; float x = (a + b) * c; "
                            "float y = *p++; vector<int> *v = 0; int z = sizeof(*p); "
                            "float w = *s->f; float u = *" +
                            read("pp[1]") + "; void (*f)(int) = 0; (*f)(1); float t = 2 * *p; (*s).f = 0; "
                            "for (int i = 0, *k = 0; i < 1; ++i) {} }");
}

TEST(RewriteAccesses, HostCodeDeclaratorsAddressesMembersAndConstantsAreLeftAlone) {
  const std::string host = "void h(float* a) { a[0] = a[1]; }";
  EXPECT_EQ(body(host), host);
  const std::string constant = "__host__ __device__ constexpr int f(const int* a) { return a[0]; }";
  EXPECT_EQ(body(constant), constant);
  const std::string kept =
      "__global__ void k(P* p, unsigned* bins) { float v[4]; int s = 0, w[2]; "
      "atomicAdd(&bins[v[0]], 1); p[0].x = 1; p->y[2] = 3; constexpr int c = q[1]; "
      "int n = sizeof(p[0]); }";
  // Only v[0] (a read, inside the atomic's argument) is an access.
  EXPECT_EQ(body(kept), "__global__ void k(P* p, unsigned* bins) {" + flag +
                            " float v[4]; int s = 0, w[2]; atomicAdd(&bins[" + read("v[0]") +
                            "], 1); p[0].x = 1; p->y[2] = 3; constexpr int c = q[1]; "
                            "int n = sizeof(p[0]); }");
}

TEST(RewriteAccesses, AnAssertsConditionStaysAsWrittenForItsMessage) {
  // A failed assert prints its condition's text: the student's, never the checked accesses'.
  EXPECT_EQ(body("__global__ void k(const int* v, int n) { assert((v[0] + 1) < n); "
                 "int x = v[1]; }"),
            "__global__ void k(const int* v, int n) {" + flag +
                " assert((v[0] + 1) < n); int x = " + read("v[1]") + "; }");
}

// nvcc: "expression must have a constant value" for a device array sized at run time; g++ takes
// it as an extension unless -Wvla is an error around it. Host code and constant sizes are left.
TEST(RewriteAccesses, ADeviceArraySizedByANameIsCompiledWithVlaAsAnError) {
  const std::string pragma_on =
      "_Pragma(\"GCC diagnostic push\") _Pragma(\"GCC diagnostic error \\\"-Wvla\\\"\") ";
  const std::string pragma_off = " _Pragma(\"GCC diagnostic pop\")";
  EXPECT_EQ(body("__global__ void k(int n) { float v[n], w[4]; }"),
            "__global__ void k(int n) { " + pragma_on + "float v[n], w[4];" + pragma_off + " }");
  EXPECT_EQ(body("__global__ void k() { float w[4]; }"), "__global__ void k() { float w[4]; }");
  EXPECT_EQ(body("void h(int n) { float v[n]; }"), "void h(int n) { float v[n]; }");
}

TEST(RewriteAccesses, AnAddressInParenthesesIsNoAccess) {
  // The textbook's privatised histogram writes atomicAdd(&(histo_s[b]), 1): no read of histo_s
  // (a read there raced with every other warp's atomic: a false race on a correct kernel).
  const std::string kept = "__global__ void k(unsigned* h) { atomicAdd(&(h[3]), 1); "
                           "atomicAdd(&((h[4])), 1); }";
  EXPECT_EQ(body(kept), kept); // nothing to check: not even the block's flag
  // A call's parentheses still hold a read: f(h[3]) reads h[3].
  EXPECT_EQ(body("__global__ void k(unsigned* h) { g(&f(h[3])); }"),
            "__global__ void k(unsigned* h) {" + flag + " g(&f(" + read("h[3]") + ")); }");
}

TEST(RewriteAccesses, LambdasAskTheThreadContextAndLinesStayPut) {
  EXPECT_EQ(body("__global__ void k(float* a) {\n  auto f = [&](int i) { return a[i]; };\n}"),
            "__global__ void k(float* a) {\n  auto f = [&](int i) { return "
            "(::cugrade::emu::detail::checking_shared() ? "
            "::cugrade::emu::detail::shared_read(a[i], true, 2) : "
            "::cugrade::emu::detail::shared_read(a[i], false, 2)); };\n}");
  const std::string src =
      "__global__ void k(float* a,\n float* b) {\n  a[0] =\n    b[1]; a[\n 2] = 0;\n}\n";
  const std::string out = body(src);
  EXPECT_EQ(newlines(out), newlines(src));
  EXPECT_NE(out.find(write("a[0]", 3)), std::string::npos) << out;
  EXPECT_NE(out.find(read("b[1]", 4)), std::string::npos) << out;
  // A subscript spanning lines is wrapped, not repeated: its lines stay where they were.
  EXPECT_NE(out.find("::cugrade::emu::detail::shared_write(a[\n 2], __cugrade_chk, 4)"),
            std::string::npos)
      << out;
}

} // namespace access_rewrite

namespace access_macros {

using cugrade::emu::detail::expand_access_macros;

TEST(AccessMacros, AMacroThatSubscriptsIsExpandedAtItsUseAndLinesStayPut) {
  // The column-major idiom of SGEMM tutorials; the invocation spans two lines.
  const std::string src = "#define A(i,j) A[(i) + (j)*lda]\nx = A(r,\n c) + A(0, k);\n";
  EXPECT_EQ(expand_access_macros(src),
            "#define A(i,j) A[(i) + (j)*lda]\nx = A[(r) + (c)*lda]\n + A[(0) + (k)*lda];\n");
  // A macro named like its array, as students name the tile: `sa` without `(` is the array.
  EXPECT_EQ(expand_access_macros("#define sa(i) sa[i]\nsa(3) = sa[4];\n"),
            "#define sa(i) sa[i]\nsa[3] = sa[4];\n");
}

TEST(AccessMacros, ArgumentsAndOtherMacrosAreExpandedAsThePreprocessorWould) {
  // OFFSET has no subscript and stays for g++; FETCH_FLOAT4's subscript and argument come out.
  EXPECT_EQ(expand_access_macros("#define OFFSET(r, c, ld) ((r) * (ld) + (c))\n"
                                 "#define FETCH_FLOAT4(p) (reinterpret_cast<float4*>(&(p))[0])\n"
                                 "v = FETCH_FLOAT4(a[OFFSET(i, j, n)]);\n"),
            "#define OFFSET(r, c, ld) ((r) * (ld) + (c))\n"
            "#define FETCH_FLOAT4(p) (reinterpret_cast<float4*>(&(p))[0])\n"
            "v = (reinterpret_cast<float4*>(&(a[OFFSET(i, j, n)]))[0]);\n");
  // A macro that reaches memory through another; an argument that is itself an invocation.
  EXPECT_EQ(expand_access_macros("#define S(i) s[i]\n#define TOP S(0)\nx = TOP + S(S(1));\n"),
            "#define S(i) s[i]\n#define TOP S(0)\nx = s[0] + s[s[1]];\n");
  // Comments inside an invocation become spaces.
  EXPECT_EQ(expand_access_macros("#define S(i) s[i]\nx = S(/* first */ 1/* and */+2);\n"),
            "#define S(i) s[i]\nx = s[1 +2];\n");
}

TEST(AccessMacros, AMacroThatSpellsSharedIsExpandedForTheSharedPass) {
  EXPECT_EQ(expand_access_macros("#define SHARED __shared__\nSHARED float t[4];\n"),
            "#define SHARED __shared__\n__shared__ float t[4];\n");
}

TEST(AccessMacros, MacrosThatAreNotSafeToExpandByHandAreLeftToTheCompiler) {
  const std::vector<std::string> kept = {
      "#define BLOCK_SIZE 512\nint n = BLOCK_SIZE;\n",      // no subscript
      "#define S(i) s[i]\n#undef S\nx = S(1);\n",           // undefined again
      "#define S(i) s[i]\n#define S(i) s[i]\nx = S(1);\n",  // defined twice
      "#ifdef BIG\n#define S(i) s[i]\n#endif\nx = S(1);\n", // conditional
      "#define S(i) s[i##0]\nx = S(1);\n",                  // token pasting
      "#define S(...) s[__VA_ARGS__]\nx = S(1);\n",         // variadic
      "x = S(1);\n#define S(i) s[i]\n",                     // used before its #define
      "#define S(i) s[i]\n#if S(1)\n#endif\n",              // in a directive
      "#define S(i, j) s[i][j]\nx = S(1);\n",               // wrong count
      "#define S(i) s[i]\nx = \"S(1)\"; // S(2)\n",         // literal and comment
      "#define S(i) s[i]\nauto f = S;\n",                   // no invocation
  };
  for (const std::string& src : kept) {
    EXPECT_EQ(expand_access_macros(src), src);
  }
}

TEST(AccessMacros, AMacroWrittenToExplodeLeavesTheSourceAsItWas) {
  std::string src = "#define M0(x) s[x]\n";
  for (int i = 1; i <= 40; ++i) {
    src += "#define M" + std::to_string(i) + "(x) M" + std::to_string(i - 1) + "(x) + M" +
           std::to_string(i - 1) + "(x)\n";
  }
  src += "y = M40(1);\n";
  EXPECT_EQ(expand_access_macros(src), src);
}

TEST(AccessMacros, HostileNestingAndUnclosedInvocationsEndQuicklyWithoutExpanding) {
  // 100,000 nested invocations (and 20 nested through macros): past the bounds, the source is
  // left as it was (a recursion per level would take the grader's stack).
  std::string nested = "#define S(i) s[i]\nx = ";
  for (int i = 0; i < 100000; ++i) {
    nested += "S(";
  }
  nested += "0";
  nested.append(100000, ')');
  nested += ";\n";
  EXPECT_EQ(expand_access_macros(nested), nested);
  std::string twenty = "#define S(i) s[i]\nx = ";
  for (int i = 0; i < 20; ++i) {
    twenty += "S(";
  }
  twenty += "0" + std::string(20, ')') + ";\n";
  EXPECT_EQ(expand_access_macros(twenty), twenty);
  // 200,000 invocations that never close: each is no invocation, found in one pass.
  std::string unclosed = "#define S(i) s[i]\n";
  for (int i = 0; i < 200000; ++i) {
    unclosed += "S(";
  }
  EXPECT_EQ(expand_access_macros(unclosed), unclosed);
  // A wrong count is g++'s error; what it holds is left too.
  EXPECT_EQ(expand_access_macros("#define S(i) s[i]\nx = S(S(1), 2);\n"),
            "#define S(i) s[i]\nx = S(S(1), 2);\n");
  // The rewriter as a whole gets through nested casts and parentheses in device code.
  std::string casts = "__global__ void k(float* p) { float v = ";
  for (int i = 0; i < 20000; ++i) {
    casts += "*(float*)(";
  }
  casts += "p";
  casts.append(20000, ')');
  casts += "; }\n";
  EXPECT_TRUE(cugrade::emu::rewrite_source(casts, "k.cu").ok());
}

TEST(AccessMacros, ASharedTileReachedThroughAMacroIsChecked) {
  const std::string out = body("#define PS(i) partialSum[i]\n"
                               "__global__ void k(float* out) {\n"
                               "  __shared__ float partialSum[64];\n"
                               "  PS(threadIdx.x) = 1;\n"
                               "  out[0] = PS(0);\n"
                               "}\n");
  EXPECT_NE(out.find("shared_write(partialSum[threadIdx.x], __cugrade_chk, 4)"), std::string::npos)
      << out;
  EXPECT_NE(out.find("shared_read(partialSum[0], true, 5)"), std::string::npos) << out;
}

} // namespace access_macros

namespace access_rewrite {

TEST(RewriteAccesses, ASubscriptedCastIsOneAccessOfTheCastType) {
  // FETCH_FLOAT4's load (a float4 at a time) and store; the address inside is no access.
  const std::string load = "reinterpret_cast<const float4 *>(&(x[i]))[0]";
  EXPECT_EQ(body("__global__ void k(const float* x) { float4 v = (" + load + "); }"),
            "__global__ void k(const float* x) {" + flag + " float4 v = (" + read(load) + "); }");
  EXPECT_EQ(body("__global__ void k(float* y, float4 v) { reinterpret_cast<float4*>(y)[i] = v; }"),
            "__global__ void k(float* y, float4 v) {" + flag + " " +
                write("reinterpret_cast<float4*>(y)[i]") + " = v; }");
  // A cast that is not subscripted, or subscripted after a member, is left alone.
  const std::string kept =
      "__global__ void k(float* y) { float4* p = reinterpret_cast<float4*>(y); "
      "int a = static_cast<int>(y[0].x); }";
  EXPECT_NE(body(kept).find("reinterpret_cast<float4*>(y);"), std::string::npos);
}

} // namespace access_rewrite

namespace access_rewrite {

TEST(RewriteAccesses, AStoreThroughParenthesesThatOnlyGroupTheTargetIsAWrite) {
  // FETCH_FLOAT4(s[i]) = v once expanded: a store, so two threads storing to one float4 of a
  // tile race as writes (read as a load, the write-write hazard went unseen).
  const std::string target = "reinterpret_cast<float4*>(&(s[i]))[0]";
  EXPECT_EQ(body("__global__ void k(float* s, float4 v) { (" + target + ") = v; }"),
            "__global__ void k(float* s, float4 v) {" + flag + " (" + write(target) + ") = v; }");
  EXPECT_EQ(body("__global__ void k(float* s) { ((s[i])) += 1; }"),
            "__global__ void k(float* s) {" + flag + " ((" + update("s[i]") + ")) += 1; }");
  // A call's or a condition's parentheses are no group around a store.
  EXPECT_EQ(body("__global__ void k(float* s) { g(s[i]) = 1; }"),
            "__global__ void k(float* s) {" + flag + " g(" + read("s[i]") + ") = 1; }");
  EXPECT_EQ(body("__global__ void k(float* s) { if (s[i]) x = 1; }"),
            "__global__ void k(float* s) {" + flag + " if (" + read("s[i]") + ") x = 1; }");
}

TEST(RewriteAccesses, ADereferencedCastPointerIsOneAccessOfItsType) {
  EXPECT_EQ(body("__global__ void k(const float* x) { float4 v = *(float4 *)(&x[i]); }"),
            "__global__ void k(const float* x) {" + flag +
                " float4 v = " + read("*(float4 *)(&x[i])") + "; }");
  EXPECT_EQ(body("__global__ void k(float* y, float4 v) { *(float4*)&y[4 * i] = v; }"),
            "__global__ void k(float* y, float4 v) {" + flag + " " + write("*(float4*)&y[4 * i]") +
                " = v; }");
  EXPECT_EQ(
      body("__device__ float4 f(const float* p) { return *reinterpret_cast<const float4*>(p); }"),
      "__device__ float4 f(const float* p) {" + flag + " return " +
          read("*reinterpret_cast<const float4*>(p)") + "; }");
  // Products, declarators and a `*` that applies to more than the cast stay.
  for (const std::string kept :
       {"__global__ void k(float* a, int n) { float s = a0 * (float)n; float *p = a; }",
        "__global__ void k(S p) { float4 s = *(float4*)p.data; }",
        "void h(float* x) { float4 v = *(float4*)x; }"}) {
    EXPECT_EQ(body(kept), kept);
  }
}

} // namespace access_rewrite
