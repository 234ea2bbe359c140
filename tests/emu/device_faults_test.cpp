// Faults a GPU stops a launch on that bounds checks do not see, as compute-sanitizer-free GPU runs
// report them: a failed device-side assert() (cudaErrorAssert, sticky) and a misaligned load
// (cudaErrorMisalignedAddress, sticky), each with the student's line. Device buffers start at a
// multiple of 256 bytes on a GPU: an access is judged by its offset into its buffer, whatever the
// emulator's own placement. And the occupancy API's block-size search.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;

class DeviceFaults : public ::testing::Test {
protected:
  void SetUp() override { cugrade::emu::reset_device(); }
  void TearDown() override { cugrade::emu::reset_device(); }
  module m_kernels{"emu_test_device_fault_kernels"};

  static int line(const char* tag) {
    return emu_test::line_of(emu_test::kernel_source("device_fault_kernels.cu"), tag);
  }
};

TEST_F(DeviceFaults, AnAssertThatHoldsCostsNothing) {
  device_buffer<int> values(300);
  std::vector<int> host(300);
  std::iota(host.begin(), host.end(), 0);
  values.upload(host);
  device_buffer<int> out(300);
  m_kernels.fn<void(const int*, int, int, int*)>("run_assert_below")(values.get(), 300, 300,
                                                                     out.get());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(out.download(), host);
  EXPECT_TRUE(cugrade::emu::take_diagnostics().empty());
}

TEST_F(DeviceFaults, AFailedAssertEndsTheLaunchWithItsLineAndLeavesTheDeviceUnusable) {
  device_buffer<int> values(300);
  std::vector<int> host(300);
  std::iota(host.begin(), host.end(), 0);
  values.upload(host);
  device_buffer<int> out(300);
  m_kernels.fn<void(const int*, int, int, int*)>("run_assert_below")(values.get(), 300, 200,
                                                                     out.get());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorAssert);
  EXPECT_EQ(cudaMemset(out.get(), 0, 4), cudaErrorAssert) << "the error is sticky, as on a GPU";
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "device_assert");
  EXPECT_EQ(diags[0].file, "device_fault_kernels.cu");
  EXPECT_EQ(diags[0].line, line("LINE:assert_below"));
  EXPECT_NE(diags[0].message.find("assertion `values[i] < limit` failed"), std::string::npos)
      << diags[0].message;
  EXPECT_NE(diags[0].message.find("kernel assert_below, block ("), std::string::npos)
      << diags[0].message;
  EXPECT_GE(diags[0].block[0] * 128 + diags[0].thread[0], 200u) << "a thread whose value >= 200";
}

TEST_F(DeviceFaults, Float4LoadsAtAMultipleOf16BytesIntoTheirBufferPass) {
  // 7 floats: here the buffer's start is not a multiple of 16 (its end touches a guard page), on
  // a GPU it is; the loads from its first byte are aligned there, so they are here.
  for (const int floats : {7, 8, 4099}) {
    device_buffer<float> in(static_cast<std::size_t>(floats));
    in.upload(std::vector<float>(static_cast<std::size_t>(floats), 1.0f));
    const int count = floats / 4;
    device_buffer<float> out(static_cast<std::size_t>(count));
    m_kernels.fn<void(const float*, int, int, float*)>("run_sum_float4")(in.get(), 0, count,
                                                                         out.get());
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << floats << " floats";
    EXPECT_EQ(out.download(), std::vector<float>(static_cast<std::size_t>(count), 4.0f));
    m_kernels.fn<void(const float*, int, int, float*)>("run_sum_float4_ldg")(in.get(), 4, count - 1,
                                                                             out.get());
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << floats << " floats, __ldg from in + 4";
  }
}

TEST_F(DeviceFaults, AFloat4LoadOneFloatIntoItsBufferIsMisalignedAtItsLine) {
  // Whatever the size, so whatever the emulator's own placement of the buffer.
  // The article as the size is read: "a 28-byte", "an 80-byte".
  const std::vector<std::pair<int, std::string>> sizes = {
      {7, "a "}, {8, "a "}, {13, "a "}, {20, "an "}, {4099, "a "}};
  for (const auto& [floats, article] : sizes) {
    cugrade::emu::reset_device();
    device_buffer<float> in(static_cast<std::size_t>(floats));
    device_buffer<float> out(4);
    m_kernels.fn<void(const float*, int, int, float*)>("run_sum_float4")(in.get(), 1, 1, out.get());
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorMisalignedAddress) << floats << " floats";
    const auto diags = cugrade::emu::take_diagnostics();
    ASSERT_EQ(diags.size(), 1u) << floats << " floats";
    EXPECT_EQ(diags[0].error_kind, "misaligned_address");
    EXPECT_EQ(diags[0].line, line("LINE:float4_load"));
    EXPECT_NE(diags[0].message.find("a 16-byte access at byte 4 of " + article +
                                    std::to_string(floats * 4) + "-byte device buffer"),
              std::string::npos)
        << diags[0].message;
  }
}

TEST_F(DeviceFaults, AMisalignedLoadThroughLdgIsMisalignedToo) {
  device_buffer<float> in(64);
  device_buffer<float> out(4);
  m_kernels.fn<void(const float*, int, int, float*)>("run_sum_float4_ldg")(in.get(), 2, 4,
                                                                           out.get());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorMisalignedAddress);
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("at byte 8 of a 256-byte device buffer"), std::string::npos)
      << diags[0].message;
}

TEST_F(DeviceFaults, WordsReadFromAByteBufferAreJudgedByTheirOffsetIntoIt) {
  // 4099 bytes: the buffer's start here is 3 bytes past a multiple of 4.
  device_buffer<unsigned char> in(4099);
  device_buffer<unsigned> out(1024);
  m_kernels.fn<void(const unsigned char*, int, int, unsigned*)>("run_words_of_bytes")(
      in.get(), 0, 1024, out.get());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  m_kernels.fn<void(const unsigned char*, int, int, unsigned*)>("run_words_of_bytes")(
      in.get(), 1, 1024, out.get());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorMisalignedAddress)
      << "a 4-byte load at byte 1 (checked in the blocks the emulator checks: all of 16)";
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].line, line("LINE:word_load"));
}

TEST_F(DeviceFaults, ThePotentialBlockSizeFillsAMultiprocessor) {
  cudaDeviceProp props{};
  ASSERT_EQ(cudaGetDeviceProperties(&props, 0), cudaSuccess);
  std::vector<int> host(6, -1);
  m_kernels.fn<void(int*)>("run_potential_block_sizes")(host.data());
  // Without a limit: the largest block, as many of them as fill a multiprocessor.
  EXPECT_EQ(host[0], props.maxThreadsPerBlock);
  EXPECT_EQ(host[1], props.maxThreadsPerMultiProcessor / props.maxThreadsPerBlock *
                         props.multiProcessorCount);
  // A limit of 200 threads: no size up to it keeps more threads resident (128 x 16 blocks fill a
  // multiprocessor of 2048, where 192 x 10 do not).
  const auto resident = [&](int size, int shared) {
    int blocks = 0;
    m_kernels.fn<void(int, int, int*)>("run_blocks_per_multiprocessor")(size, shared, &blocks);
    return blocks * size;
  };
  EXPECT_LE(host[2], 200);
  for (const int size : {200, 192, 160, 128, 96, 64, 32}) {
    EXPECT_GE(resident(host[2], 0), resident(size, 0)) << size;
  }
  EXPECT_EQ(host[3], resident(host[2], 0) / host[2] * props.multiProcessorCount);
  // 24 KiB a block: shared memory, not threads, limits the blocks; the size still fills them.
  EXPECT_GT(host[4], 0);
  EXPECT_LE(host[4], props.maxThreadsPerBlock);
  EXPECT_EQ(host[4] % 32, 0);
  int per_sm = 0;
  m_kernels.fn<void(int, int, int*)>("run_blocks_per_multiprocessor")(host[4], 24 * 1024, &per_sm);
  ASSERT_GT(per_sm, 0);
  EXPECT_EQ(host[5], per_sm * props.multiProcessorCount);
}

} // namespace
