// A kernel handed host memory (src/memory_reach.cpp): a checked block's store, load or atomic on
// a malloc'ed, `new`ed or host-stack address ends the launch as out_of_bounds before it happens,
// naming the kernel, the access, the line, the thread and the block, as a GPU's kernel faults on
// it; the memory a GPU's kernel may reach passes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;
using launcher = void(const float*, int, float*);

class HostReach : public ::testing::Test {
protected:
  void SetUp() override {
    cugrade::emu::reset_device();
    cugrade::emu::set_shared_checks(true);
  }
  static std::string at(const char* marker) {
    return "host_reach_kernels.cu:" +
           std::to_string(
               emu_test::line_of(emu_test::kernel_source("host_reach_kernels.cu"), marker));
  }
  // Runs `name` on n ones and returns the launch's one diagnostic (empty when none).
  cugrade::emu::diagnostic run(const char* name, int n, float* first_out = nullptr) {
    device_buffer<float> in(n), out(n);
    in.upload(std::vector<float>(n, 1.0f));
    m_kernels.fn<launcher>(name)(in.get(), n, out.get());
    m_status = cudaDeviceSynchronize();
    if (first_out != nullptr) {
      *first_out = out.download()[0];
    }
    auto diags = cugrade::emu::take_diagnostics();
    EXPECT_LE(diags.size(), 1u);
    return diags.empty() ? cugrade::emu::diagnostic{} : diags[0];
  }
  static bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  }
  // The launch ended as a GPU's does on host memory: a sticky illegal address, out_of_bounds,
  // and a message naming the access ("a read of 4 bytes") at the marked line.
  void expect_host_memory_fault(const cugrade::emu::diagnostic& d, const std::string& access,
                                const char* marker) const {
    EXPECT_EQ(m_status, cudaErrorIllegalAddress) << "sticky, as after a GPU's fault";
    EXPECT_EQ(d.error_kind, "out_of_bounds");
    EXPECT_TRUE(has(d.message, access + " at " + at(marker))) << d.message;
    EXPECT_TRUE(has(d.message, "reaches host memory")) << d.message;
  }
  cudaError_t m_status = cudaSuccess;
  module m_kernels{"emu_test_host_reach_kernels"};
};

TEST_F(HostReach, AStoreToAMallocedHostArrayIsOutOfBoundsBeforeItHappens) {
  const auto d = run("totals_in_malloced_memory", 1000);
  expect_host_memory_fault(d, "a write of 4 bytes", "TOTALS_STORE");
  EXPECT_EQ(d.kernel, "block_totals");
  EXPECT_EQ(d.file + ":" + std::to_string(d.line), at("TOTALS_STORE"));
  EXPECT_TRUE(has(d.message, "a write of 4 bytes at " + at("TOTALS_STORE") + " by thread 0 of "
                                                                             "block "))
      << d.message;
  EXPECT_TRUE(has(d.message, "reaches host memory at 0x")) << d.message;
  EXPECT_TRUE(has(d.message, "cudaMalloc a device buffer")) << d.message;
}

TEST_F(HostReach, ALoadFromTheLaunchersStackIsOutOfBounds) {
  const auto d = run("factors_on_the_host_stack", 300);
  expect_host_memory_fault(d, "a read of 4 bytes", "FACTORS_READ");
  EXPECT_EQ(d.kernel, "scale_by");
}

TEST_F(HostReach, AnAtomicOnNewedCountersIsOutOfBounds) {
  const auto d = run("counters_from_new", 300);
  expect_host_memory_fault(d, "an atomic update of 4 bytes", "COUNTS_ATOMIC");
}

TEST_F(HostReach, AStoreThroughAPointerToAHostVariableIsOutOfBounds) {
  const auto d = run("total_in_a_host_variable", 100);
  expect_host_memory_fault(d, "a write of 4 bytes", "TOTAL_STORE");
  EXPECT_EQ(d.kernel, "sum_into");
}

TEST_F(HostReach, ALoadThroughAPointerToAHostVariableIsOutOfBounds) {
  const auto d = run("count_by_host_address", 300);
  expect_host_memory_fault(d, "a read of 4 bytes", "COUNT_READ");
}

TEST_F(HostReach, PointersToDeviceSharedLocalAndDeviceVariablesPass) {
  float first = 0.0f;
  const auto d = run("lawful_pointers", 300, &first);
  EXPECT_EQ(m_status, cudaSuccess) << d.message;
  EXPECT_TRUE(d.message.empty()) << d.message;
  EXPECT_EQ(first, 2.0f);
}

TEST_F(HostReach, DeviceConstantLocalArgumentPinnedAndManagedMemoryPass) {
  float first = 0.0f;
  const auto d = run("lawful_memory", 1000, &first);
  EXPECT_EQ(m_status, cudaSuccess) << d.message;
  EXPECT_TRUE(d.error_kind.empty()) << d.message;
  EXPECT_EQ(first, 3.0f); // 1 * (1 + 1 + 0) + 1
}

TEST_F(HostReach, DeviceCodesOwnMallocIsReachable) {
  float first = 0.0f;
  const auto d = run("device_heap_scratch", 300, &first);
  EXPECT_EQ(m_status, cudaSuccess) << d.message;
  EXPECT_TRUE(d.error_kind.empty()) << d.message;
  EXPECT_EQ(first, 2.0f);
}

// The check is one of a checked block's (all blocks of a launch of up to 32): with the checks off
// a host array is reached as before.
TEST_F(HostReach, WithTheChecksOffTheHostArrayIsReached) {
  cugrade::emu::set_shared_checks(false);
  const auto d = run("totals_in_malloced_memory", 1000);
  EXPECT_EQ(m_status, cudaSuccess);
  EXPECT_TRUE(d.error_kind.empty()) << d.message;
  cugrade::emu::set_shared_checks(true);
}

} // namespace
