// Faults that end the process: one line of JSON on the registered descriptor, exit status 86.
// Each case runs in a forked child. Also: a kernel that never ends can be stopped with SIGTERM.
#include <gtest/gtest.h>
#include <regex>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;
using nlohmann::json;

class Faults : public ::testing::Test {
protected:
  void SetUp() override { cugrade::emu::reset_device(); }
  static json report(const emu_test::child_result& child) {
    EXPECT_TRUE(child.exited);
    EXPECT_EQ(child.exit_status, cugrade::emu::fault_exit_status);
    EXPECT_EQ(std::count(child.fault_report.begin(), child.fault_report.end(), '\n'), 1)
        << child.fault_report;
    return json::parse(child.fault_report, nullptr, false);
  }
  module m_kernels{"emu_test_diag_kernels"};
};

TEST_F(Faults, StoreOnePastTheEndIsReportedWithKernelBlockAndThread) {
  const int n = 289; // 1156 bytes: not a multiple of anything convenient
  const auto child = emu_test::run_in_child([&] {
    cugrade::emu::set_worker_count(1);
    device_buffer<float> out(n);
    m_kernels.fn<void(float*, int)>("run_store_past_end")(out.get(), n);
  });
  const json r = report(child);
  ASSERT_FALSE(r.is_discarded()) << child.fault_report;
  EXPECT_EQ(r["event"], "fault");
  EXPECT_EQ(r["error_kind"], "out_of_bounds");
  EXPECT_EQ(r["kernel"], "store_past_end");
  // Thread 289 is block 4 (of 64 threads), thread 33.
  EXPECT_EQ(r["block"], json::array({4, 0, 0}));
  EXPECT_EQ(r["thread"], json::array({33, 0, 0}));
  EXPECT_EQ(r["access"], "write");
  // The buffer's address, for the grader to name it from where the runner put each buffer.
  EXPECT_TRUE(std::regex_match(r["message"].get<std::string>(),
                               std::regex("kernel store_past_end, block \\(4,0,0\\), thread "
                                          "\\(33,0,0\\): write just past the end of a "
                                          "1156-byte device buffer at 0x[0-9a-f]+")))
      << r["message"];
  EXPECT_EQ(r["pc_offset"].get<std::string>().rfind("0x", 0), 0u);
  EXPECT_NE(r["object"].get<std::string>().find("emu_test_diag_kernels.so"), std::string::npos);
}

TEST_F(Faults, ReadFarPastTheEndIsOutOfBounds) {
  const auto child = emu_test::run_in_child([&] {
    device_buffer<float> in(1000);
    device_buffer<float> out(1);
    m_kernels.fn<void(const float*, float*, int)>("run_read_past_end")(in.get(), out.get(), 1500);
  });
  const json r = report(child);
  ASSERT_FALSE(r.is_discarded()) << child.fault_report;
  EXPECT_EQ(r["error_kind"], "out_of_bounds");
  EXPECT_EQ(r["access"], "read");
  EXPECT_NE(r["message"].get<std::string>().find("bytes past the end of a 4000-byte device buffer"),
            std::string::npos)
      << r["message"];
}

TEST_F(Faults, NullPointerAndFreedBufferAreIllegalAddresses) {
  const auto null_child =
      emu_test::run_in_child([&] { m_kernels.fn<void(float*)>("run_store_through")(nullptr); });
  const json a = report(null_child);
  ASSERT_FALSE(a.is_discarded()) << null_child.fault_report;
  EXPECT_EQ(a["error_kind"], "illegal_address");
  EXPECT_NE(a["message"].get<std::string>().find("null"), std::string::npos) << a["message"];

  const auto freed_child = emu_test::run_in_child([&] {
    float* p = nullptr;
    cudaMalloc(&p, 64);
    cudaFree(p);
    m_kernels.fn<void(float*)>("run_store_through")(p);
  });
  const json b = report(freed_child);
  ASSERT_FALSE(b.is_discarded()) << freed_child.fault_report;
  EXPECT_EQ(b["error_kind"], "illegal_address");
  EXPECT_NE(b["message"].get<std::string>().find("already freed"), std::string::npos)
      << b["message"];
}

TEST_F(Faults, StackOverflowHitsTheGuardPage) {
  const auto child = emu_test::run_in_child([&] {
    device_buffer<int> out(2);
    m_kernels.fn<void(int*, int)>("run_recurse")(out.get(), 20); // 40 KiB: fits
    m_kernels.fn<void(int*, int)>("run_recurse")(out.get(), 1000);
  });
  const json r = report(child);
  ASSERT_FALSE(r.is_discarded()) << child.fault_report;
  EXPECT_EQ(r["error_kind"], "illegal_address");
  EXPECT_EQ(r["kernel"], "recurse");
  EXPECT_NE(r["message"].get<std::string>().find("stack overflow"), std::string::npos)
      << r["message"];
}

TEST_F(Faults, KernelThatNeverEndsStopsOnSigterm) {
  const auto start = std::chrono::steady_clock::now();
  const auto child = emu_test::run_in_child(
      [&] {
        device_buffer<int> flag(1);
        flag.fill(0);
        m_kernels.fn<void(int*)>("run_spin")(flag.get());
      },
      std::chrono::milliseconds(300));
  EXPECT_FALSE(child.exited);
  EXPECT_EQ(child.signal, SIGTERM);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

} // namespace
