// The shared-memory checks: hazards between threads of different warps in one barrier interval
// are reported in every schedule, with both lines, and nothing else is (same-warp exchanges,
// stores of one value, atomics); an access outside a __shared__ array, static or dynamic, stops
// the kernel naming the array, the element, the line, the thread and the block, also where the
// checks are off (the guard page after every array). And the time limit counts only time
// without progress.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <regex>
#include <string>
#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;
using nlohmann::json;

constexpr cugrade::emu::schedule_order every_order[] = {cugrade::emu::schedule_order::forward,
                                                        cugrade::emu::schedule_order::reverse,
                                                        cugrade::emu::schedule_order::shuffled};

class SharedChecks : public ::testing::Test {
protected:
  void SetUp() override {
    cugrade::emu::reset_device();
    cugrade::emu::set_shared_checks(true);
    cugrade::emu::set_schedule_order(cugrade::emu::schedule_order::forward);
  }
  void TearDown() override { cugrade::emu::set_shared_checks(true); }
  static std::string at(const char* marker) {
    return "shared_check_kernels.cu:" +
           std::to_string(
               emu_test::line_of(emu_test::kernel_source("shared_check_kernels.cu"), marker));
  }
  static bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  }
  module m_kernels{"emu_test_shared_check_kernels"};
};

TEST_F(SharedChecks, AWriteAndReadsOfOtherWarpsWithNoBarrierAreARaceInEveryOrder) {
  const int blocks = 3;
  for (const auto order : every_order) {
    cugrade::emu::reset_device();
    cugrade::emu::set_schedule_order(order, 11);
    device_buffer<float> in(blocks * 256), out(blocks * 256);
    in.upload(std::vector<float>(blocks * 256, 1.0f));
    m_kernels.fn<void(const float*, float*, int)>("run_last_step_race")(in.get(), out.get(),
                                                                        blocks);
    // A race leaves the device usable (the kernel ran to its end), as racecheck's findings do.
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto diags = cugrade::emu::take_diagnostics();
    ASSERT_EQ(diags.size(), 1u) << "one race per launch";
    EXPECT_EQ(diags[0].error_kind, "race");
    EXPECT_EQ(diags[0].kernel, "last_step_race");
    EXPECT_TRUE(has(diags[0].message, at("LINE:tree_write"))) << diags[0].message;
    EXPECT_TRUE(has(diags[0].message, at("LINE:tree_read"))) << diags[0].message;
    EXPECT_TRUE(has(diags[0].message, "partial[0]")) << diags[0].message;
    EXPECT_TRUE(has(diags[0].message, "no __syncthreads() between")) << diags[0].message;
  }
}

TEST_F(SharedChecks, TheSameKernelWithTheBarrierHasNoRace) {
  device_buffer<float> in(256), out(256);
  in.upload(std::vector<float>(256, 1.0f));
  for (const auto order : every_order) {
    cugrade::emu::set_schedule_order(order, 5);
    m_kernels.fn<void(const float*, float*, int)>("run_last_step_synced")(in.get(), out.get(), 1);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_TRUE(cugrade::emu::take_diagnostics().empty());
    EXPECT_EQ(out.download(), std::vector<float>(256, 256.0f));
  }
}

TEST_F(SharedChecks, LanesOfOneWarpSameValueStoresAndAtomicsAreNoRace) {
  device_buffer<float> lanes(32);
  device_buffer<int> flags(256);
  std::vector<unsigned char> bytes(256);
  for (int i = 0; i < 256; ++i) {
    bytes[i] = static_cast<unsigned char>(i * 7);
  }
  device_buffer<unsigned char> data(256);
  data.upload(bytes);
  device_buffer<unsigned int> bins(16);
  for (const auto order : every_order) {
    cugrade::emu::set_schedule_order(order, 3);
    m_kernels.fn<void(float*)>("run_warp_local_exchange")(lanes.get());
    m_kernels.fn<void(int*)>("run_same_value_flag")(flags.get());
    bins.fill(0);
    m_kernels.fn<void(const unsigned char*, unsigned int*)>("run_atomic_bins")(data.get(),
                                                                               bins.get());
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto diags = cugrade::emu::take_diagnostics();
    EXPECT_TRUE(diags.empty()) << diags.front().message;
    EXPECT_EQ(bins.download(), std::vector<unsigned int>(16, 16u));
  }
}

TEST_F(SharedChecks, APlainReadOfWhatAnotherWarpUpdatesAtomicallyIsARace) {
  device_buffer<unsigned char> data(256);
  data.fill(1);
  device_buffer<unsigned int> bins(16);
  for (const auto order : every_order) {
    cugrade::emu::set_schedule_order(order, 9);
    m_kernels.fn<void(const unsigned char*, unsigned int*)>("run_atomic_then_read")(data.get(),
                                                                                    bins.get());
    const auto diags = cugrade::emu::take_diagnostics();
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].error_kind, "race");
    EXPECT_TRUE(has(diags[0].message, at("LINE:atomic_update"))) << diags[0].message;
    EXPECT_TRUE(has(diags[0].message, at("LINE:plain_read"))) << diags[0].message;
  }
}

TEST_F(SharedChecks, DynamicSharedMemoryWrittenThroughAPointerParameterRaces) {
  device_buffer<float> out(128);
  m_kernels.fn<void(float*)>("run_dynamic_neighbour_race")(out.get());
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "race");
  EXPECT_TRUE(has(diags[0].message, at("LINE:device_store"))) << diags[0].message;
  EXPECT_TRUE(has(diags[0].message, at("LINE:dynamic_read"))) << diags[0].message;
  EXPECT_TRUE(has(diags[0].message, "cells[")) << diags[0].message;
}

TEST_F(SharedChecks, TheLastBlockOfALargeGridIsAlwaysChecked) {
  const int blocks = 5000; // far more than the checks look at all of
  device_buffer<float> out(blocks * 64);
  m_kernels.fn<void(float*, int)>("run_race_in_last_block")(out.get(), blocks);
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "race");
  EXPECT_EQ(diags[0].block[0], static_cast<unsigned>(blocks - 1));
}

TEST_F(SharedChecks, WithTheChecksOffNoRaceIsLookedFor) {
  cugrade::emu::set_shared_checks(false);
  device_buffer<float> in(256), out(256);
  in.upload(std::vector<float>(256, 1.0f));
  m_kernels.fn<void(const float*, float*, int)>("run_last_step_race")(in.get(), out.get(), 1);
  EXPECT_TRUE(cugrade::emu::take_diagnostics().empty());
}

TEST_F(SharedChecks, AWritePastAStaticArrayNamesTheArrayTheIndexTheLineTheThreadAndTheBlock) {
  device_buffer<float> out(513);
  m_kernels.fn<void(float*)>("run_past_the_end")(out.get());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress) << "sticky, as on a GPU";
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "out_of_bounds");
  // Every block writes past T; which one a worker reaches first varies with the workers.
  EXPECT_TRUE(std::regex_search(
      diags[0].message, std::regex("T\\[1024\\] written at " + std::string(at("LINE:past_end")) +
                                   " by thread 512 of block [0-9]+; T has 1024 elements")))
      << diags[0].message;
}

TEST_F(SharedChecks, ARowPastA2DTileIsNamedWithBothIndices) {
  device_buffer<float> out(256);
  m_kernels.fn<void(float*)>("run_tile_row_past_end")(out.get());
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "out_of_bounds");
  EXPECT_TRUE(has(diags[0].message, "Mds[16][") &&
              has(diags[0].message, "] read at " + at("LINE:tile_past_end")))
      << diags[0].message;
  EXPECT_TRUE(has(diags[0].message, "Mds is 16 x 16")) << diags[0].message;
  EXPECT_TRUE(has(diags[0].message, "thread (")) << "a 2-D block's thread: " << diags[0].message;
}

TEST_F(SharedChecks, DynamicSharedMemoryIsBoundedByTheLaunchsThirdParameter) {
  device_buffer<float> out(64);
  m_kernels.fn<void(float*)>("run_dynamic_below_start")(out.get());
  auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "out_of_bounds");
  EXPECT_TRUE(has(diags[0].message, "s[-1] read at " + at("LINE:below_start"))) << diags[0].message;
  cugrade::emu::reset_device();
  device_buffer<float> more(32);
  m_kernels.fn<void(float*, int)>("run_dynamic_past_end")(more.get(), 37);
  diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_TRUE(has(diags[0].message, "s[37] written at " + at("LINE:dynamic_past_end")))
      << diags[0].message;
  EXPECT_TRUE(has(diags[0].message, "s has 37 elements (the launch's 148 bytes"))
      << diags[0].message;
}

// A block stopped by an out-of-bounds access leaves its last write unjudged. The next launch
// starts without it: else another warp's first write to the same word was a race with a thread
// of a kernel that had ended (found running the emulator's tests in one process).
TEST_F(SharedChecks, AStoppedBlocksLastWriteIsNotCarriedIntoTheNextLaunch) {
  for (const auto order : every_order) {
    cugrade::emu::reset_device();
    cugrade::emu::set_schedule_order(order);
    {
      device_buffer<float> first(64);
      // A launch before, so that the stopped one's garbage differs from the next launch's (the
      // launch count, which seeds it, starts again at the reset).
      m_kernels.fn<void(float*, int)>("run_second_warp_writes_first")(first.get(), 37);
      m_kernels.fn<void(float*, int)>("run_dynamic_past_end")(first.get(), 37);
      ASSERT_EQ(cugrade::emu::take_diagnostics().size(), 1u);
    }
    cugrade::emu::reset_device(); // the out-of-bounds access is a sticky error
    device_buffer<float> out(64);
    // The same dynamic size: its s[0] is the stopped block's s[0].
    m_kernels.fn<void(float*, int)>("run_second_warp_writes_first")(out.get(), 37);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    const auto diags = cugrade::emu::take_diagnostics();
    EXPECT_TRUE(diags.empty()) << diags[0].message;
    EXPECT_EQ(out.download(), std::vector<float>(64, 3.0f));
  }
}

TEST_F(SharedChecks, WithTheChecksOffTheGuardPageAfterTheArrayStopsTheKernel) {
  const auto child = emu_test::run_in_child([&] {
    cugrade::emu::set_worker_count(1);
    cugrade::emu::set_shared_checks(false);
    device_buffer<float> out(513);
    m_kernels.fn<void(float*)>("run_past_the_end")(out.get());
  });
  EXPECT_EQ(child.exit_status, cugrade::emu::fault_exit_status) << child.stdout_text;
  const json r = json::parse(child.fault_report, nullptr, false);
  ASSERT_FALSE(r.is_discarded()) << child.fault_report;
  EXPECT_EQ(r["error_kind"], "out_of_bounds");
  EXPECT_EQ(r["access"], "write");
  EXPECT_EQ(r["thread"], json::array({512, 0, 0}));
  EXPECT_TRUE(has(r["message"], "): write to T[1024], past the end of the __shared__ array T "
                                "(1024 elements)"))
      << r["message"];
}

TEST_F(SharedChecks, ALaunchWhoseBlocksKeepFinishingOutlivesTheTimeLimit) {
  // 2^28 threads that return at once take longer than 0.1 s (about half a second as a region
  // form), but blocks keep starting; the launch's cap is 0.1 s plus 1 us a thread, 268 s.
  const auto child = emu_test::run_in_child([&] {
    cugrade::emu::set_worker_count(1);
    cugrade::emu::set_time_limit(0.1);
    device_buffer<float> out(1);
    const auto started = std::chrono::steady_clock::now();
    m_kernels.fn<void(float*, unsigned, unsigned)>("run_returns_at_once")(out.get(), 262144, 1024);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    std::printf("finished %d after %.3f s\n", static_cast<int>(cudaDeviceSynchronize()),
                took.count());
  });
  EXPECT_EQ(child.exit_status, 0) << child.fault_report;
  EXPECT_TRUE(has(child.stdout_text, "finished 0")) << child.stdout_text;
  const double took = std::stod(child.stdout_text.substr(child.stdout_text.find("after ") + 6));
  EXPECT_GT(took, 0.1) << "the launch must last longer than the limit for this test to say much";
}

TEST_F(SharedChecks, AKernelThatMakesNoProgressStopsAtTheTimeLimitNamingIt) {
  const auto started = std::chrono::steady_clock::now();
  const auto child = emu_test::run_in_child([&] {
    cugrade::emu::set_time_limit(0.5);
    device_buffer<int> flag(1);
    flag.fill(0);
    m_kernels.fn<void(volatile int*)>("run_spin_forever")(flag.get());
  });
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
  EXPECT_EQ(child.signal, SIGTERM);
  const json r = json::parse(child.fault_report, nullptr, false);
  ASSERT_FALSE(r.is_discarded()) << child.fault_report;
  EXPECT_EQ(r["error_kind"], "timeout");
  EXPECT_EQ(r["kernel"], "spin_forever");
  EXPECT_FALSE(r["pc_offset"].get<std::string>().empty());
}

TEST_F(SharedChecks, HostCodeThatNeverReturnsStopsAtTheTimeLimit) {
  const auto child = emu_test::run_in_child([&] {
    cugrade::emu::set_time_limit(0.3);
    volatile unsigned long spins = 0;
    for (;;) {
      spins = spins + 1;
    }
  });
  EXPECT_EQ(child.signal, SIGTERM);
  const json r = json::parse(child.fault_report, nullptr, false);
  ASSERT_FALSE(r.is_discarded()) << child.fault_report;
  EXPECT_EQ(r["error_kind"], "timeout");
  EXPECT_TRUE(has(r["message"], "host code")) << r["message"];
  EXPECT_EQ(r["pc_offset"], "");
}

} // namespace
