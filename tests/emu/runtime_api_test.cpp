// The host API: pointer checks as measured on CUDA 13, the emulated device's properties and
// attributes, error names, and last-error semantics.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "emu_test_support.h"

namespace {

class RuntimeApi : public ::testing::Test {
protected:
  void SetUp() override { cugrade::emu::reset_device(); }
};

TEST_F(RuntimeApi, CopiesMustStayInsideOneDeviceAllocation) {
  float* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 100), cudaSuccess);
  std::vector<float> host(64, 1.0f);
  EXPECT_EQ(cudaMemcpy(d, host.data(), 100, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d, host.data(), 200, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(host.data(), d, 200, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d + 10, host.data(), 100, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(d, 0, 200), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(host.data(), host.data() + 8, 4, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d, host.data(), 4, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d, host.data(), 4, static_cast<cudaMemcpyKind>(7)),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaMemcpy(host.data(), d, 4, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(host.data() + 1, host.data(), 4, cudaMemcpyHostToHost), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidMemcpyDirection) << "the last failure";
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
}

TEST_F(RuntimeApi, AHostDirectionBetweenTwoDeviceBuffersCopiesAsUnifiedAddressingDoes) {
  // Measured on an H100 (CUDA 13.0, 2026-12-06): with both pointers from cudaMalloc,
  // cudaMemcpyHostToDevice and cudaMemcpyDeviceToHost succeed and copy; a host array where the
  // direction says device is cudaErrorInvalidValue and copies nothing.
  float* a = nullptr;
  float* b = nullptr;
  ASSERT_EQ(cudaMalloc(&a, 64 * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b, 64 * sizeof(float)), cudaSuccess);
  std::vector<float> host(64), back(64, 0.0f);
  for (int i = 0; i < 64; ++i) {
    host[i] = static_cast<float>(i) + 0.5f;
  }
  ASSERT_EQ(cudaMemcpy(a, host.data(), 256, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(b, a, 256, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(back.data(), b, 256, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back, host);
  ASSERT_EQ(cudaMemset(b, 0, 256), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(b, a, 256, cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(back.data(), b, 256, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back, host);
  ASSERT_EQ(cudaMemset(b, 0, 256), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(b, host.data(), 256, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
  ASSERT_EQ(cudaMemcpy(back.data(), b, 256, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back, std::vector<float>(64, 0.0f)) << "nothing copied";
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  cudaFree(a);
  cudaFree(b);
}

TEST_F(RuntimeApi, AFailedCopySaysWhichSideIsWrongUntilTheErrorIsRead) {
  float* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 16), cudaSuccess);
  float host[4] = {1, 2, 3, 4};
  EXPECT_FALSE(cugrade::emu::last_failed_call().has_value());
  // main()'s copy "to the host" aimed at a device pointer, from a host array.
  EXPECT_EQ(cudaMemcpy(d, host, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  auto failed = cugrade::emu::last_failed_call();
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->call, "cudaMemcpy");
  EXPECT_EQ(failed->why, "with cudaMemcpyDeviceToHost, the source must be device memory (from "
                         "cudaMalloc), and it is host memory");
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_FALSE(cugrade::emu::last_failed_call().has_value()) << "read, so forgotten";
  EXPECT_EQ(cudaMemcpy(d, host, 32, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  failed = cugrade::emu::last_failed_call();
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->why, "with cudaMemcpyHostToDevice, the destination is a device buffer with "
                         "fewer than the 32 bytes copied from that address");
  // A later error of a call that does not name itself is not blamed on the copy.
  EXPECT_EQ(cudaFree(host), cudaErrorInvalidValue);
  EXPECT_FALSE(cugrade::emu::last_failed_call().has_value());
  (void)cudaGetLastError();
  cudaFree(d);
}

TEST_F(RuntimeApi, AllocationEdgeCases) {
  void* p = reinterpret_cast<void*>(1);
  EXPECT_EQ(cudaMalloc(&p, 0), cudaSuccess);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(cudaMalloc(&p, std::size_t{1} << 50), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
  int local = 0;
  EXPECT_EQ(cudaFree(&local), cudaErrorInvalidValue);
  float* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 4096), cudaSuccess);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(d) % 4096, 0u) << "page-sized buffers are aligned";
  EXPECT_EQ(cudaFree(d + 1), cudaErrorInvalidValue) << "not the start of an allocation";
  EXPECT_EQ(cudaFree(d), cudaSuccess);
}

TEST_F(RuntimeApi, FreshDeviceMemoryHoldsGarbage) {
  unsigned* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 64 * sizeof(unsigned)), cudaSuccess);
  std::vector<unsigned> host(64);
  ASSERT_EQ(cudaMemcpy(host.data(), d, 256, cudaMemcpyDeviceToHost), cudaSuccess);
  for (const unsigned v : host) {
    EXPECT_NE(v, 0u);
  }
  cudaFree(d);
}

TEST_F(RuntimeApi, DevicePropertiesDescribeTheEmulatedDevice) {
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  EXPECT_STREQ(prop.name, "cugrade CPU emulator");
  EXPECT_EQ(prop.warpSize, 32);
  EXPECT_EQ(prop.maxThreadsPerBlock, 1024);
  EXPECT_EQ(prop.sharedMemPerBlock, 49152u);
  EXPECT_EQ(prop.sharedMemPerBlockOptin, 232448u);
  EXPECT_EQ(prop.multiProcessorCount, 132); // as an H100 SXM or H200 reports
  EXPECT_EQ(prop.maxThreadsDim[2], 64);
  EXPECT_EQ(prop.maxGridSize[0], 2147483647);
  EXPECT_EQ(prop.maxGridSize[1], 65535);
  EXPECT_EQ(prop.major, 9);
  EXPECT_EQ(prop.minor, 0);
  int v = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0), cudaSuccess);
  EXPECT_EQ(v, 49152);
  EXPECT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  EXPECT_EQ(v, prop.multiProcessorCount);
  EXPECT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
  EXPECT_EQ(v, 232448);
  EXPECT_EQ(cudaGetDeviceProperties(&prop, 1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaSetDevice(3), cudaErrorInvalidDevice);
  int count = 0;
  EXPECT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(count, 1);
}

TEST_F(RuntimeApi, ErrorNamesAndStringsMatchCuda) {
  EXPECT_STREQ(cudaGetErrorName(cudaSuccess), "cudaSuccess");
  EXPECT_STREQ(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorIllegalAddress),
               "an illegal memory access was encountered");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorLaunchFailure), "unspecified launch failure");
  EXPECT_EQ(static_cast<int>(cudaErrorInvalidConfiguration), 9);
  EXPECT_EQ(static_cast<int>(cudaErrorIllegalAddress), 700);
  EXPECT_EQ(static_cast<int>(cudaErrorLaunchFailure), 719);
}

TEST_F(RuntimeApi, OccupancyFollowsThreadAndSharedMemoryLimits) {
  emu_test::module m("emu_test_launch_kernels");
  // Any function address serves as the kernel key.
  const void* kernel = reinterpret_cast<const void*>(m.fn<void(int*)>("launch_qualified"));
  int blocks = -1;
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 256, 0), cudaSuccess);
  EXPECT_EQ(blocks, 8);
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 256, 40 * 1024),
            cudaSuccess);
  EXPECT_EQ(blocks, 5); // 228 KiB per SM over 40 KiB and the 1 KiB reserved per block
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 2048, 0), cudaSuccess);
  EXPECT_EQ(blocks, 0);
}

TEST_F(RuntimeApi, PitchedAllocationsCopiesAndSetsGoRowByRow) {
  float* d = nullptr;
  std::size_t pitch = 0;
  ASSERT_EQ(cudaMallocPitch(&d, &pitch, 5 * sizeof(float), 3), cudaSuccess);
  EXPECT_EQ(pitch, 512u) << "rows start at multiples of 512 bytes";
  std::vector<float> host(15);
  for (std::size_t i = 0; i < host.size(); ++i) {
    host[i] = static_cast<float>(i);
  }
  ASSERT_EQ(cudaMemcpy2D(d, pitch, host.data(), 5 * sizeof(float), 5 * sizeof(float), 3,
                         cudaMemcpyHostToDevice),
            cudaSuccess);
  ASSERT_EQ(cudaMemset2D(reinterpret_cast<char*>(d) + pitch, pitch, 0, 2 * sizeof(float), 1),
            cudaSuccess);
  std::vector<float> back(15, -1.0f);
  ASSERT_EQ(cudaMemcpy2D(back.data(), 5 * sizeof(float), d, pitch, 5 * sizeof(float), 3,
                         cudaMemcpyDeviceToHost),
            cudaSuccess);
  std::vector<float> want = host;
  want[5] = want[6] = 0.0f; // the set's two elements of row 1
  EXPECT_EQ(back, want);
  EXPECT_EQ(cudaMemcpy2D(d, 8, host.data(), 20, 20, 3, cudaMemcpyHostToDevice),
            cudaErrorInvalidPitchValue)
      << "a row wider than its pitch";
  EXPECT_EQ(cudaMemcpy2D(d, pitch, host.data(), 20, 20, 4, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue)
      << "a fourth row past the allocation";
  EXPECT_EQ(cudaFree(d), cudaSuccess);
}

TEST_F(RuntimeApi, SymbolsHaveAnAddressAndASize) {
  static float symbol[12];
  void* at = nullptr;
  EXPECT_EQ(cudaGetSymbolAddress(&at, symbol), cudaSuccess);
  EXPECT_EQ(at, static_cast<void*>(symbol));
  std::size_t size = 0;
  EXPECT_EQ(cudaGetSymbolSize(&size, symbol), cudaSuccess);
  EXPECT_EQ(size, sizeof symbol);
  EXPECT_EQ(cudaGetSymbolSize(nullptr, symbol), cudaErrorInvalidValue);
}

TEST_F(RuntimeApi, AvailableDynamicSharedMemoryIsWhatAnH200Answers) {
  emu_test::module m("emu_test_launch_kernels");
  const void* kernel = reinterpret_cast<const void*>(m.fn<void(int*)>("launch_qualified"));
  // An H200's answers for a kernel without static shared memory (docs/evidence/runtime-values.md):
  // 228 KiB split among the blocks, within the 48 KiB a kernel gets without opting in.
  const std::vector<std::pair<int, std::size_t>> answers = {
      {1, 49152}, {4, 49152}, {8, 29184}, {16, 14592}, {32, 7296}};
  for (const auto& [blocks, want] : answers) {
    std::size_t bytes = 0;
    ASSERT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, kernel, blocks, 32), cudaSuccess);
    EXPECT_EQ(bytes, want) << blocks << " blocks";
  }
  ASSERT_EQ(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000),
            cudaSuccess);
  std::size_t bytes = 0;
  ASSERT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, kernel, 1, 256), cudaSuccess);
  EXPECT_EQ(bytes, 200000u) << "the kernel's opted-in ceiling";
  ASSERT_EQ(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152),
            cudaSuccess);
  // Threads that do not fit on one SM, more than 32 blocks, no blocks: an error, as on the H200.
  EXPECT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, kernel, 3, 1024),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, kernel, 33, 32),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, kernel, 0, 256),
            cudaErrorInvalidValue);
  cudaGetLastError();
}

} // namespace
