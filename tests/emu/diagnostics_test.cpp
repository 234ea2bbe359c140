// Diagnostics that leave the process running: barrier divergence (never a hang, with the line),
// underflow caught by the canary, the sticky error afterwards, schedule-dependent results of a
// missing barrier, printf from kernels.
#include <gtest/gtest.h>

#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;

class Diagnostics : public ::testing::Test {
protected:
  void SetUp() override {
    cugrade::emu::reset_device();
    cugrade::emu::set_schedule_order(cugrade::emu::schedule_order::forward);
  }
  static int marked_line(const char* marker) {
    return emu_test::line_of(emu_test::kernel_source("diag_kernels.cu"), marker);
  }
  module m_kernels{"emu_test_diag_kernels"};
};

// As on a GPU of compute capability 7.0 and later, a barrier does not wait for threads that have
// exited (the PTX ISA's barrier): the threads that skip a __syncthreads() inside `if (t < stride)`
// and exit release the others, in every order, and the tree still sums right.
TEST_F(Diagnostics, ABarrierDoesNotWaitForThreadsThatExitedInEveryOrder) {
  for (const auto order :
       {cugrade::emu::schedule_order::forward, cugrade::emu::schedule_order::reverse,
        cugrade::emu::schedule_order::shuffled}) {
    cugrade::emu::reset_device();
    cugrade::emu::set_schedule_order(order, 7);
    device_buffer<float> data(256);
    data.upload(std::vector<float>(256, 1.0f));
    m_kernels.fn<void(float*)>("run_sync_in_if")(data.get());
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_TRUE(cugrade::emu::take_diagnostics().empty());
    EXPECT_EQ(data.download()[0], 256.0f);
  }
}

TEST_F(Diagnostics, DifferentBarriersForTwoHalvesOfABlockAreDivergence) {
  device_buffer<int> data(32);
  m_kernels.fn<void(int*)>("run_two_barriers")(data.get());
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "barrier_divergence");
  EXPECT_EQ(diags[0].line, marked_line("LINE:second_barrier"));
  EXPECT_NE(diags[0].message.find(":" + std::to_string(marked_line("LINE:first_barrier"))),
            std::string::npos)
      << diags[0].message;
}

TEST_F(Diagnostics, AfterAFaultEveryCallFailsUntilReset) {
  device_buffer<float> data(256);
  device_buffer<int> halves(32);
  m_kernels.fn<void(int*)>("run_two_barriers")(halves.get());
  void* p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, 16), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure) << "sticky";
  std::vector<float> host(256);
  EXPECT_EQ(cudaMemcpy(host.data(), data.get(), 1024, cudaMemcpyDeviceToHost),
            cudaErrorLaunchFailure);
  cugrade::emu::reset_device();
  EXPECT_EQ(cudaMalloc(&p, 16), cudaSuccess);
  EXPECT_EQ(cudaFree(p), cudaSuccess);
}

TEST_F(Diagnostics, UnderflowStoreIsCaughtByTheCanary) {
  device_buffer<float> data(10); // 40 bytes: the canary fills the rest of the page before it
  m_kernels.fn<void(float*)>("run_store_before_start")(data.get());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "out_of_bounds");
  EXPECT_EQ(diags[0].kernel, "store_before_start");
  EXPECT_NE(diags[0].message.find("8 bytes before the start of a 40-byte device buffer"),
            std::string::npos)
      << diags[0].message;
}

TEST_F(Diagnostics, MissingBarrierGivesDifferentResultsInDifferentOrders) {
  // Which threads found their neighbour's slot already written (the others read garbage).
  auto run = [&](cugrade::emu::schedule_order order) {
    cugrade::emu::set_schedule_order(order, 99);
    device_buffer<int> out(128);
    m_kernels.fn<void(int*)>("run_missing_barrier")(out.get());
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<int> r = out.download();
    std::vector<bool> saw_write(128);
    for (int t = 0; t < 128; ++t) {
      saw_write[t] = r[t] == (t + 1) % 128 + 1;
    }
    return saw_write;
  };
  const std::vector<bool> forward = run(cugrade::emu::schedule_order::forward);
  const std::vector<bool> reverse = run(cugrade::emu::schedule_order::reverse);
  const std::vector<bool> shuffled = run(cugrade::emu::schedule_order::shuffled);
  for (int t = 0; t < 128; ++t) {
    EXPECT_EQ(forward[t], t == 127) << "forward: only the last thread sees thread 0's write";
    EXPECT_EQ(reverse[t], t != 127) << "reverse: everyone but the first to run sees a write";
  }
  EXPECT_NE(forward, shuffled);
  EXPECT_NE(reverse, shuffled);
  EXPECT_EQ(run(cugrade::emu::schedule_order::shuffled), shuffled) << "a seed is reproducible";
}

TEST_F(Diagnostics, NanosleepLetsTheOtherThreadsOfTheBlockRun) {
  device_buffer<int> out(1);
  m_kernels.fn<void(int*)>("run_wait_politely")(out.get());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(out.download()[0], 42);
}

TEST_F(Diagnostics, PrintfFromKernelsReachesStdout) {
  const auto child = emu_test::run_in_child([&] { m_kernels.fn<void(int)>("run_hello")(4); });
  EXPECT_EQ(child.exit_status, 0);
  for (int t = 0; t < 4; ++t) {
    EXPECT_NE(child.stdout_text.find("hello from thread " + std::to_string(t) + " of 4\n"),
              std::string::npos)
        << child.stdout_text;
  }
}

} // namespace
