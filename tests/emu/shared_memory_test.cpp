// Shared memory is shared by the threads of a block, fresh for every block, and starts as garbage.
#include <gtest/gtest.h>

#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;

class SharedMemory : public ::testing::Test {
protected:
  void SetUp() override { cugrade::emu::reset_device(); }
  module m_kernels{"emu_test_shared_kernels"};
};

TEST_F(SharedMemory, OneDimensionalArrayIsSharedWithinEachBlock) {
  const int blocks = 5;
  device_buffer<int> out(64 * blocks);
  m_kernels.fn<void(int*, int)>("run_rotate")(out.get(), blocks);
  const std::vector<int> r = out.download();
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < 64; ++t) {
      EXPECT_EQ(r[b * 64 + t], ((t + 1) % 64) * 10 + b) << "block " << b << " thread " << t;
    }
  }
}

TEST_F(SharedMemory, TwoDimensionalVolatileAndScalarDeclarationsWork) {
  device_buffer<int> out(64);
  m_kernels.fn<void(int*)>("run_transpose")(out.get());
  const std::vector<int> r = out.download();
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      EXPECT_EQ(r[y * 8 + x], x * 8 + y + 64 * 1000);
    }
  }
}

TEST_F(SharedMemory, FileScopeArrayResolvesToTheRunningBlock) {
  const int blocks = 3;
  device_buffer<int> out(64 * blocks);
  m_kernels.fn<void(int*, int)>("run_file_tile")(out.get(), blocks);
  const std::vector<int> r = out.download();
  for (int b = 0; b < blocks; ++b) {
    for (int y = 0; y < 8; ++y) {
      for (int x = 0; x < 8; ++x) {
        EXPECT_EQ(r[b * 64 + y * 8 + x], x * 8 + y + b * 100);
      }
    }
  }
}

TEST_F(SharedMemory, DynamicSharedMemoryAtFunctionAndFileScope) {
  const int n = 96;
  device_buffer<float> out(n);
  m_kernels.fn<void(float*, int)>("run_dynamic_reverse")(out.get(), n);
  std::vector<float> r = out.download();
  for (int t = 0; t < n; ++t) {
    EXPECT_EQ(r[t], static_cast<float>(n - 1 - t));
  }
  m_kernels.fn<void(float*, int)>("run_file_dynamic_reverse")(out.get(), n);
  r = out.download();
  for (int t = 0; t < n; ++t) {
    EXPECT_EQ(r[t], static_cast<float>(n - 1 - t) + 0.5f);
  }
}

TEST_F(SharedMemory, UnwrittenSharedMemoryHoldsGarbageInEveryBlock) {
  cugrade::emu::set_worker_count(1); // blocks run one after another on one worker
  const int blocks = 3;
  device_buffer<unsigned> out(256 * blocks);
  m_kernels.fn<void(unsigned*, int)>("run_read_unwritten")(out.get(), blocks);
  const std::vector<unsigned> r = out.download();
  int zeros = 0;
  int markers = 0;
  for (const unsigned v : r) {
    zeros += v == 0 ? 1 : 0;
    markers += v == 0xC0FFEEu ? 1 : 0;
  }
  EXPECT_EQ(zeros, 0) << "garbage, never zeros";
  EXPECT_EQ(markers, 0) << "a block must not see what the previous block wrote";
  device_buffer<unsigned> dyn(64);
  m_kernels.fn<void(unsigned*)>("run_read_unwritten_dynamic")(dyn.get());
  for (const unsigned v : dyn.download()) {
    EXPECT_NE(v, 0u);
  }
}

} // namespace
