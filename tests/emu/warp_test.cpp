// Warp primitives: 32-lane exchange semantics (with widths), votes, partial warps, and a rendezvous
// that can never complete reported as a deadlock instead of hanging.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;

class Warp : public ::testing::Test {
protected:
  void SetUp() override { cugrade::emu::reset_device(); }
  module m_kernels{"emu_test_warp_kernels"};
};

TEST_F(Warp, ShuffleReductionGivesTheSum) {
  const unsigned seed = 20240611;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-100, 100);
  for (const int n : {1, 31, 1000, 4097}) {
    std::vector<float> in(n);
    double expect = 0;
    for (float& v : in) {
      v = static_cast<float>(dist(rng));
      expect += v;
    }
    device_buffer<float> d_in(n);
    d_in.upload(in);
    device_buffer<float> total(1);
    total.fill(0);
    m_kernels.fn<void(const float*, int, float*, int)>("run_shuffle_sum")(d_in.get(), n,
                                                                          total.get(), 128);
    EXPECT_EQ(total.download()[0], static_cast<float>(expect)) << "n=" << n << " seed=" << seed;
  }
}

int expected_shuffle(int column, int lane) {
  auto own = [&](int src, bool ok) { return 100 + (ok ? src : lane); };
  switch (column) {
  case 0:
    return 103;
  case 1:
    return 100 + (lane & ~7) + ((lane + 1) & 7);
  case 2:
    return own(lane - 2, lane >= 2);
  case 3:
    return own(lane - 1, (lane & 3) >= 1);
  case 4:
    return own(lane + 3, lane + 3 < 32);
  case 5:
    return own(lane + 1, (lane & 15) + 1 < 16);
  case 6:
    return 100 + (lane ^ 1);
  default: // lanes may read from an earlier group of `width` lanes, never from a later one
    return own(lane ^ 8, (lane ^ 8) < (lane & ~7) + 8);
  }
}

TEST_F(Warp, ShufflesFollowCudasLaneAndWidthRules) {
  device_buffer<int> out(64 * 8);
  m_kernels.fn<void(int*, int)>("run_shuffle_table")(out.get(), 64);
  const std::vector<int> r = out.download();
  for (int t = 0; t < 64; ++t) {
    for (int c = 0; c < 8; ++c) {
      EXPECT_EQ(r[t * 8 + c], expected_shuffle(c, t & 31)) << "thread " << t << " column " << c;
    }
  }
}

TEST_F(Warp, VotesAndActiveMaskInFullAndPartialWarps) {
  const int threads = 48; // the second warp has 16 lanes
  device_buffer<unsigned> out(threads * 5);
  m_kernels.fn<void(unsigned*, int)>("run_votes")(out.get(), threads);
  const std::vector<unsigned> r = out.download();
  for (int t = 0; t < threads; ++t) {
    const unsigned lanes = t < 32 ? 32u : 16u;
    const unsigned present = lanes == 32 ? ~0u : (1u << lanes) - 1u;
    unsigned ballot = 0;
    for (unsigned l = 0; l < lanes; ++l) {
      ballot |= (l % 3 == 0 ? 1u : 0u) << l;
    }
    const unsigned* v = &r[t * 5];
    EXPECT_EQ(v[0], ballot) << t;
    EXPECT_EQ(v[1], lanes == 32 ? 1u : 0u) << t << ": lane 17 exists only in a full warp";
    EXPECT_EQ(v[2], 1u) << t;
    EXPECT_EQ(v[3], lanes == 32 ? 0u : 1u) << t;
    EXPECT_EQ(v[4], present) << t;
  }
}

TEST_F(Warp, ShufflesCarryEightByteValuesAndReductionsAddLanes) {
  device_buffer<double> out(32);
  device_buffer<unsigned> sums(32);
  m_kernels.fn<void(double*, unsigned*)>("run_wide")(out.get(), sums.get());
  const std::vector<double> r = out.download();
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(r[lane], 1.0e12 + (lane ^ 31));
    EXPECT_EQ(sums.download()[lane], 496u);
  }
}

TEST_F(Warp, EveryReductionOverItsMasksLanes) {
  device_buffer<unsigned> out(8 * 32);
  m_kernels.fn<void(unsigned*)>("run_reductions")(out.get());
  const std::vector<unsigned> r = out.download();
  // Lanes 0-23 hold -10..13: sum 36; as unsigned the smallest is 0 and the largest is -1's bits.
  // Each of the 8 low bits is set in 3 of the 24 lanes: and 0, or and xor (odd) all set.
  const std::vector<unsigned> expected = {
      36u, 0u, static_cast<unsigned>(-10), 0xffffffffu, 13u, 0xf0u, 0xffu, 0xffu};
  for (int lane = 0; lane < 24; ++lane) {
    for (int k = 0; k < 8; ++k) {
      EXPECT_EQ(r[8 * lane + k], expected[k]) << "lane " << lane << ", reduction " << k;
    }
  }
  for (int lane = 24; lane < 32; ++lane) {
    EXPECT_EQ(r[8 * lane], 24u + 25 + 26 + 27 + 28 + 29 + 30 + 31) << "lane " << lane;
  }
}

TEST_F(Warp, RendezvousThatCannotCompleteIsADeadlockNotAHang) {
  device_buffer<int> out(32);
  m_kernels.fn<void(int*)>("run_divergent_shuffle")(out.get());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "deadlock");
  EXPECT_EQ(diags[0].file, "warp_kernels.cu");
  EXPECT_EQ(diags[0].line, emu_test::line_of(emu_test::kernel_source("warp_kernels.cu"),
                                             "LINE:divergent_shuffle"));
  EXPECT_NE(diags[0].message.find("__shfl_down_sync"), std::string::npos) << diags[0].message;
  EXPECT_NE(diags[0].message.find("__syncthreads()"), std::string::npos) << diags[0].message;
}

// Warp-synchronous code through a volatile pointer (the "unrolled last warp"): the lanes take
// each access together, in every block (checked or not) and whatever order the threads run in.
TEST_F(Warp, VolatileLastWarpGivesTheSumInEveryOrder) {
  const int blocks = 40; // more than the emulator checks whole: some blocks run unchecked
  std::vector<int> in(blocks * 256);
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  for (int& v : in) {
    v = dist(rng);
  }
  device_buffer<int> d_in(in.size());
  d_in.upload(in);
  device_buffer<int> out(blocks);
  for (const auto order :
       {cugrade::emu::schedule_order::forward, cugrade::emu::schedule_order::reverse,
        cugrade::emu::schedule_order::shuffled}) {
    cugrade::emu::set_schedule_order(order, 5);
    out.fill(0);
    m_kernels.fn<void(const int*, int, int*)>("run_volatile_last_warp")(d_in.get(), blocks,
                                                                        out.get());
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<int> sums = out.download();
    for (int b = 0; b < blocks; ++b) {
      int expect = 0;
      for (int t = 0; t < 256; ++t) {
        expect += in[b * 256 + t];
      }
      EXPECT_EQ(sums[b], expect) << "block " << b << " order " << static_cast<int>(order);
    }
  }
  cugrade::emu::set_schedule_order(cugrade::emu::schedule_order::forward);
  EXPECT_TRUE(cugrade::emu::take_diagnostics().empty());
}

TEST_F(Warp, LanesThatWaitAtABarrierDoNotHoldUpTheStep) {
  for (const auto order :
       {cugrade::emu::schedule_order::forward, cugrade::emu::schedule_order::reverse}) {
    cugrade::emu::set_schedule_order(order);
    device_buffer<int> out(32);
    m_kernels.fn<void(int*)>("run_volatile_half_warp")(out.get());
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << static_cast<int>(order);
    const std::vector<int> r = out.download();
    for (int t = 0; t < 32; ++t) {
      EXPECT_EQ(r[t], t < 16 ? t + 1 : t) << "thread " << t << " order " << static_cast<int>(order);
    }
  }
  cugrade::emu::set_schedule_order(cugrade::emu::schedule_order::forward);
  EXPECT_TRUE(cugrade::emu::take_diagnostics().empty());
}

TEST_F(Warp, ALaneThatSpinsDoesNotHoldUpTheStep) {
  const auto child = emu_test::run_in_child([&] {
    cugrade::emu::set_time_limit(2.0);
    device_buffer<int> out(32);
    m_kernels.fn<void(int*)>("run_step_beside_spin")(out.get());
    std::printf("finished %d:", static_cast<int>(cudaDeviceSynchronize()));
    for (const int v : out.download()) {
      std::printf(" %d", v);
    }
  });
  EXPECT_EQ(child.exit_status, 0) << child.fault_report;
  std::string want = "finished 0:";
  for (int t = 0; t < 32; ++t) {
    want += " " + std::to_string(t == 1 ? 100 : t + 100);
  }
  EXPECT_EQ(child.stdout_text, want) << child.fault_report;
}

} // namespace
