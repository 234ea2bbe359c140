// Device buffers closed to host code while a launcher runs (cugrade_emu_control.h,
// set_host_guard): a launcher that dereferences a device pointer faults as on a GPU, and one that
// goes through the runtime works as before.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;
using nlohmann::json;
using launcher = void(const float*, int, float*);

// 1000 ones on the device.
struct ones : device_buffer<float> {
  ones() : device_buffer<float>(1000) { upload(std::vector<float>(1000, 1.0f)); }
};

class HostGuard : public ::testing::Test {
protected:
  void SetUp() override { cugrade::emu::reset_device(); }
  void TearDown() override { cugrade::emu::set_host_guard(false); }

  // Runs `name` on 1000 ones in a child, with the guard on, and returns its fault line.
  json fault_of(const char* name) {
    const auto child = emu_test::run_in_child([&] {
      const ones in;
      device_buffer<float> out(1);
      cugrade::emu::set_host_guard(true);
      m_kernels.fn<launcher>(name)(in.get(), 1000, out.get());
    });
    EXPECT_TRUE(child.exited);
    EXPECT_EQ(child.exit_status, cugrade::emu::fault_exit_status) << child.fault_report;
    return json::parse(child.fault_report, nullptr, false);
  }

  module m_kernels{"emu_test_host_guard_kernels"};
};

TEST_F(HostGuard, AHostLoopOverDevicePartialsIsACrashNamingTheRead) {
  const json r = fault_of("host_sums_device_partials");
  ASSERT_FALSE(r.is_discarded());
  EXPECT_EQ(r["error_kind"], "crash");
  EXPECT_EQ(r["access"], "read");
  EXPECT_EQ(r["kernel"], "");
  const auto message = r["message"].get<std::string>();
  // 16 partial sums of 64 elements: the first read is byte 0 of the 64-byte scratch buffer.
  EXPECT_EQ(message.rfind("host code: read of byte 0 of a 64-byte device buffer at 0x", 0), 0u)
      << message;
  EXPECT_NE(message.find("a device pointer dereferenced in host code"), std::string::npos);
  EXPECT_NE(r["object"].get<std::string>().find("emu_test_host_guard_kernels.so"),
            std::string::npos);
}

TEST_F(HostGuard, AStoreThroughTheOutputPointerIsACrashNamingTheWrite) {
  const json r = fault_of("host_stores_result");
  ASSERT_FALSE(r.is_discarded());
  EXPECT_EQ(r["error_kind"], "crash");
  EXPECT_EQ(r["access"], "write");
  EXPECT_NE(r["message"].get<std::string>().find("byte 0 of a 4-byte device buffer"),
            std::string::npos)
      << r["message"];
}

TEST_F(HostGuard, CopiesSetsSymbolsAndLaunchesStillReachEveryBuffer) {
  const ones in;
  device_buffer<float> out(1);
  cugrade::emu::set_host_guard(true);
  m_kernels.fn<launcher>("runtime_only_sum")(in.get(), 1000, out.get());
  cugrade::emu::set_host_guard(false);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_TRUE(cugrade::emu::take_diagnostics().empty());
  EXPECT_EQ(out.download(), std::vector<float>{1000.0f});
  // Open again for host code (the runner's own checks): a direct read works.
  EXPECT_EQ(*out.get(), 1000.0f);
}

// Managed memory is the one device memory a GPU's host code may dereference: it stays open.
TEST_F(HostGuard, ManagedMemoryStaysOpenToHostCode) {
  float* managed = nullptr;
  ASSERT_EQ(cudaMallocManaged(reinterpret_cast<void**>(&managed), 4 * sizeof(float)), cudaSuccess);
  cugrade::emu::set_host_guard(true);
  float* later = nullptr;
  ASSERT_EQ(cudaMallocManaged(reinterpret_cast<void**>(&later), sizeof(float)), cudaSuccess);
  managed[3] = 2.0f;
  *later = managed[3] + 1.0f;
  cugrade::emu::set_host_guard(false);
  EXPECT_EQ(*later, 3.0f);
  cudaFree(later);
  cudaFree(managed);
}

TEST_F(HostGuard, OffByDefaultSoHostCodeStillReachesDeviceMemory) {
  const ones in;
  device_buffer<float> out(1);
  m_kernels.fn<launcher>("host_sums_device_partials")(in.get(), 1000, out.get());
  EXPECT_EQ(out.download(), std::vector<float>{1000.0f});
}

} // namespace
