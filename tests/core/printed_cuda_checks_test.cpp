// A launcher's own CUDA error check, read from what it printed, in the forms course labs print
// it: which call failed, and where, when a GPU's runtime says only the error.
#include "grader/core/printed_cuda_checks.h"

#include <gtest/gtest.h>

namespace cugrade::grader {
namespace {

constexpr const char* invalid_value = "cudaErrorInvalidValue";
constexpr const char* invalid_argument = "invalid argument";

TEST(PrintedCudaChecks, AWbCheckLineNamesTheStatementItRan) {
  const auto found = find_printed_cuda_check(
      "sum of 7 partials: 28\nFailed to run stmt cudaMemcpy(result, &sum, sizeof(float), "
      "cudaMemcpyDeviceToHost): invalid argument\n",
      invalid_value, invalid_argument);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->call, "cudaMemcpy");
  EXPECT_EQ(found->line, "Failed to run stmt cudaMemcpy(result, &sum, sizeof(float), "
                         "cudaMemcpyDeviceToHost): invalid argument");
  EXPECT_EQ(found->location, "");
}

TEST(PrintedCudaChecks, ACheckThatPrintsFileAndLineGivesTheSourceLine) {
  const auto found = find_printed_cuda_check(
      "CUDA error at /tmp/cugrade-build-1/src/histogram.cu:57 code=1(cudaErrorInvalidValue) "
      "\"cudaMemcpy(bins, d_bins, 256 * sizeof(unsigned int), cudaMemcpyHostToDevice)\"",
      invalid_value, invalid_argument);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->call, "cudaMemcpy");
  EXPECT_EQ(found->location, "histogram.cu:57");
}

TEST(PrintedCudaChecks, ByTheErrorsWordsAloneToo) {
  const auto found = find_printed_cuda_check("  cudaMalloc((void**)&d_in, bytes) failed: out of "
                                             "memory  \r\n",
                                             "cudaErrorMemoryAllocation", "out of memory");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->call, "cudaMalloc");
  EXPECT_EQ(found->line, "cudaMalloc((void**)&d_in, bytes) failed: out of memory");
}

TEST(PrintedCudaChecks, ACallPrintedWithoutTheErrorOrAQueryOfTheErrorIsNotTheFailedCall) {
  // A trace of the calls made, and the check after a launch that names only the query.
  EXPECT_FALSE(find_printed_cuda_check("calling cudaMemcpy(d_in, in, n)\ndone\n", invalid_value,
                                       invalid_argument));
  EXPECT_FALSE(find_printed_cuda_check("cudaGetLastError(): invalid argument\n", invalid_value,
                                       invalid_argument));
  EXPECT_FALSE(find_printed_cuda_check("cudaGetErrorString(err) says invalid argument\n",
                                       invalid_value, invalid_argument));
  // Nothing to match with: an empty name and empty words find nothing.
  EXPECT_FALSE(find_printed_cuda_check("cudaMemcpy(a, b, n): failed\n", "", ""));
}

// gpuErrchk prints the error's words, __FILE__ and __LINE__, and no call: the line is the clue.
TEST(PrintedCudaChecks, AGpuErrchkLineGivesTheSourceLineWithoutACall) {
  const auto found = find_printed_cuda_check(
      "GPUassert: invalid argument /tmp/cugrade-build-9/src/reduction.cu 61\n", invalid_value,
      invalid_argument);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->call, "");
  EXPECT_EQ(found->location, "reduction.cu:61");
}

// A hostile line (a megabyte-long identifier) is passed over, not matched character by character.
TEST(PrintedCudaChecks, AHugeLineIsPassedOver) {
  const std::string huge = "cuda" + std::string(1 << 20, 'A') + "(x): invalid argument\n";
  const auto found = find_printed_cuda_check(
      huge + "GPUassert: invalid argument /w/scan.cu 9\n" + huge, invalid_value, invalid_argument);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->call, "");
  EXPECT_EQ(found->location, "scan.cu:9");
  EXPECT_TRUE(runtime_call_sites(huge).empty());
}

TEST(PrintedCudaChecks, TheSourcesRuntimeCallsAreFoundByLine) {
  const auto sites =
      runtime_call_sites("#include <cstdio>\n"
                         "void f(float* d, float* h, int n) {\n"
                         "  gpuErrchk(cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost));\n"
                         "  gpuErrchk(cudaGetLastError());\n"
                         "  cudaFree (d);\n"
                         "}\n");
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_EQ(sites[0].line, 3);
  EXPECT_EQ(sites[0].call, "cudaMemcpy");
  EXPECT_EQ(sites[0].text, "gpuErrchk(cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost));");
  EXPECT_EQ(sites[1].line, 5);
  EXPECT_EQ(sites[1].call, "cudaFree");
}

TEST(PrintedCudaChecks, TheQuotedLineIsShortAndPrintable) {
  const std::string long_line = "cudaMemcpy(" + std::string(400, 'x') + "): invalid argument";
  const auto found = find_printed_cuda_check(long_line, invalid_value, invalid_argument);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->line.size(), 200u);
  EXPECT_EQ(found->line.substr(197), "...");

  const auto bytes = find_printed_cuda_check("\xe9\x72r\xff cudaMemcpy(a, b, n): invalid argument",
                                             invalid_value, invalid_argument);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->line, "?rr? cudaMemcpy(a, b, n): invalid argument");
}

} // namespace
} // namespace cugrade::grader
