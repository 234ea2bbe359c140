// Device buffers closed to host code while a launcher runs (cugrade_emu_control.h,
// set_host_guard): a launcher that dereferences a device pointer faults as on a GPU, and one that
// goes through the runtime works as before.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
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

// A copy opens only its own buffers, and closes them again: host code that reads the buffer it
// just filled (by cudaMemcpy or by cudaMemcpy2D's rows), or one the copy never touched, faults.
TEST_F(HostGuard, ACopyClosesItsBufferAgainAndLeavesTheOthersClosed) {
  enum class then_read { copied, copied_by_rows, untouched };
  for (const then_read what :
       {then_read::copied, then_read::copied_by_rows, then_read::untouched}) {
    const auto child = emu_test::run_in_child([&] {
      const ones untouched;
      device_buffer<float> copied(4);
      cugrade::emu::set_host_guard(true);
      const float values[4] = {1, 2, 3, 4};
      const cudaError_t e =
          what == then_read::copied_by_rows
              ? cudaMemcpy2D(copied.get(), 2 * sizeof(float), values, 2 * sizeof(float),
                             2 * sizeof(float), 2, cudaMemcpyHostToDevice)
              : cudaMemcpy(copied.get(), values, sizeof values, cudaMemcpyHostToDevice);
      if (e != cudaSuccess) {
        std::_Exit(3);
      }
      const volatile float* read = what == then_read::untouched ? untouched.get() : copied.get();
      std::printf("%f\n", static_cast<double>(*read));
    });
    EXPECT_TRUE(child.exited);
    EXPECT_EQ(child.exit_status, cugrade::emu::fault_exit_status) << child.fault_report;
    const json r = json::parse(child.fault_report, nullptr, false);
    ASSERT_FALSE(r.is_discarded()) << child.fault_report;
    const std::string size = what == then_read::untouched ? "a 4000-byte" : "a 16-byte";
    EXPECT_NE(r["message"].get<std::string>().find("read of byte 0 of " + size + " device buffer"),
              std::string::npos)
        << r["message"];
  }
}

// The canary in front of a closed buffer is read again only after something that could write it
// ran. Host code with the guard off is such a thing: its underflow is found at the first copy after
// the guard is back on, even though a copy before had found nothing to check.
TEST_F(HostGuard, AnUnderflowWhileTheGuardWasOffIsFoundAtTheNextCopy) {
  device_buffer<float> data(10); // 40 bytes: the canary fills the rest of the page before it
  float host[10] = {};
  cugrade::emu::set_host_guard(true);
  ASSERT_EQ(cudaMemcpy(data.get(), host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_TRUE(cugrade::emu::take_diagnostics().empty());
  cugrade::emu::set_host_guard(false);
  reinterpret_cast<unsigned char*>(data.get())[-3] = 0; // 3 bytes before the start
  cugrade::emu::set_host_guard(true);
  EXPECT_EQ(cudaMemcpy(host, data.get(), sizeof host, cudaMemcpyDeviceToHost),
            cudaErrorIllegalAddress);
  cugrade::emu::set_host_guard(false);
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("code run before now wrote 3 bytes before the start of a "
                                  "40-byte device buffer"),
            std::string::npos)
      << diags[0].message;
}

// Managed memory stays open to host code, so its canary is checked at every call.
TEST_F(HostGuard, AnUnderflowOfManagedMemoryUnderTheGuardIsFoundAtTheNextCopy) {
  device_buffer<float> data(10);
  unsigned char* managed = nullptr;
  ASSERT_EQ(cudaMallocManaged(reinterpret_cast<void**>(&managed), 24), cudaSuccess);
  float host[10] = {};
  cugrade::emu::set_host_guard(true);
  ASSERT_EQ(cudaMemcpy(data.get(), host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
  managed[-1] = 0;
  EXPECT_EQ(cudaMemcpy(host, data.get(), sizeof host, cudaMemcpyDeviceToHost),
            cudaErrorIllegalAddress);
  cugrade::emu::set_host_guard(false);
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("1 bytes before the start of a 24-byte device buffer"),
            std::string::npos)
      << diags[0].message;
  cugrade::emu::reset_device();
}

TEST_F(HostGuard, OffByDefaultSoHostCodeStillReachesDeviceMemory) {
  const ones in;
  device_buffer<float> out(1);
  m_kernels.fn<launcher>("host_sums_device_partials")(in.get(), 1000, out.get());
  EXPECT_EQ(out.download(), std::vector<float>{1000.0f});
}

} // namespace
