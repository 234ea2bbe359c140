// Cooperative groups (<cooperative_groups.h>, <cooperative_groups/reduce.h>): the block as a
// group, static and run-time tiles of a warp and cg::reduce give what a GPU gives, and a tile sync
// some lanes never reach is a deadlock at the student's line.
#include <gtest/gtest.h>

#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;

class CooperativeGroups : public ::testing::Test {
protected:
  void SetUp() override { cugrade::emu::reset_device(); }
  module m_kernels{"emu_test_cg_kernels"};
};

TEST_F(CooperativeGroups, TheBlockIsAGroupOfItsThreadsInLinearOrder) {
  const int blocks = 3;
  const int threads = 16 * 8;
  device_buffer<int> out(blocks * threads * 4);
  device_buffer<int> sums(blocks);
  m_kernels.fn<void(int*, int*, int)>("run_block_facts")(out.get(), sums.get(), blocks);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<int> r = out.download();
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < threads; ++t) {
      const int* row = &r[(b * threads + t) * 4];
      SCOPED_TRACE("block " + std::to_string(b) + " thread " + std::to_string(t));
      EXPECT_EQ(row[0], t);
      EXPECT_EQ(row[1], threads);
      EXPECT_EQ(row[2], b);
      EXPECT_EQ(row[3], t / 16);
    }
    EXPECT_EQ(sums.download()[b], threads * (threads - 1) / 2) << "block " << b;
  }
}

TEST_F(CooperativeGroups, TilesShuffleVoteAndReduceWithinThemselves) {
  const int threads = 64;
  device_buffer<int> out(threads * 24);
  m_kernels.fn<void(int*, int)>("run_tiles")(out.get(), threads);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<int> r = out.download();
  const int sizes[] = {32, 16, 4};
  const unsigned odd_bits[] = {0xAAAAAAAAu, 0xAAAAu, 0xAu};
  for (int t = 0; t < threads; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int size = sizes[k];
      const int* row = &r[t * 24 + k * 8];
      SCOPED_TRACE("thread " + std::to_string(t) + ", tile of " + std::to_string(size));
      EXPECT_EQ(row[0], t % size);
      EXPECT_EQ(row[1], t / size);
      EXPECT_EQ(row[2], size * (size - 1) / 2);
      EXPECT_EQ(static_cast<unsigned>(row[3]), odd_bits[k]);
      EXPECT_EQ(row[4], 1);
      EXPECT_EQ(row[5], 1);
      EXPECT_EQ(row[6], 100);
      EXPECT_EQ(row[7], 100 + size - 1);
    }
  }
}

TEST_F(CooperativeGroups, ATileSizedAtRunTimeIsAThreadGroup) {
  for (const unsigned size : {2u, 8u, 32u}) {
    device_buffer<int> out(128 * 3);
    m_kernels.fn<void(int*, unsigned)>("run_dynamic_tiles")(out.get(), size);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<int> r = out.download();
    for (int t = 0; t < 128; ++t) {
      SCOPED_TRACE("tile of " + std::to_string(size) + ", thread " + std::to_string(t));
      EXPECT_EQ(r[t * 3], t % static_cast<int>(size));
      EXPECT_EQ(r[t * 3 + 1], static_cast<int>(size));
      if (t % static_cast<int>(size) == 0) {
        EXPECT_EQ(r[t * 3 + 2], static_cast<int>(size)); // rank 0 holds the tile's sum of ones
      }
    }
  }
}

TEST_F(CooperativeGroups, ATileSyncSomeLanesNeverReachIsADeadlockAtItsLine) {
  device_buffer<int> out(32);
  m_kernels.fn<void(int*)>("run_divergent_tile_sync")(out.get());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "deadlock");
  EXPECT_EQ(diags[0].file, "cg_kernels.cu");
  EXPECT_EQ(diags[0].line, emu_test::line_of(emu_test::kernel_source("cg_kernels.cu"),
                                             "LINE:divergent_tile_sync"));
  EXPECT_NE(diags[0].message.find("__syncthreads()"), std::string::npos) << diags[0].message;
}

} // namespace
