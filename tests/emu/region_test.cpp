// Region forms (docs/emulation.md, "Region forms"): the blocks the checks do not look at run as
// their kernel's region form, each stretch between two barriers for every thread in turn. The
// results, the order of the threads and what a failure reports must be what the fibers give.
// Every launch here has more than 32 blocks, so most of its blocks are unchecked.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <random>
#include <vector>

#include "emu_test_support.h"

namespace {

using cugrade::emu::schedule_order;
using emu_test::device_buffer;
using emu_test::module;

constexpr schedule_order k_orders[] = {schedule_order::forward, schedule_order::reverse,
                                       schedule_order::shuffled};

class RegionForms : public ::testing::Test {
protected:
  void SetUp() override { cugrade::emu::reset_device(); }
  void TearDown() override {
    cugrade::emu::set_region_forms(true);
    cugrade::emu::set_schedule_order(schedule_order::forward);
    cugrade::emu::reset_device();
  }
  module m_kernels{"emu_test_region_kernels"};

  static int line(const char* tag) {
    return emu_test::line_of(emu_test::kernel_source("region_kernels.cu"), tag);
  }

  // The output of `run` with region forms on and off, in each schedule order.
  template <class T, class Run> void same_with_and_without(device_buffer<T>& out, Run run) {
    for (const schedule_order order : k_orders) {
      cugrade::emu::set_schedule_order(order, 7);
      std::vector<std::vector<T>> results;
      for (const bool regions : {false, true}) {
        cugrade::emu::set_region_forms(regions);
        run();
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        EXPECT_EQ(cugrade::emu::last_launch_region_blocks() > 0, regions);
        results.push_back(out.download());
      }
      EXPECT_EQ(results[0], results[1]) << "order " << static_cast<int>(order);
    }
  }
};

TEST_F(RegionForms, ATiledMatmulGivesTheFibersResultInEveryOrder) {
  const int width = 100; // 7 x 7 blocks of 16 x 16, edges partly outside
  std::mt19937 rng(20261206);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> m(width * width), n(width * width);
  for (std::size_t i = 0; i < m.size(); ++i) {
    m[i] = dist(rng);
    n[i] = dist(rng);
  }
  device_buffer<float> d_m(m.size()), d_n(n.size()), d_p(m.size());
  d_m.upload(m);
  d_n.upload(n);
  same_with_and_without(d_p, [&] {
    d_p.fill(0);
    m_kernels.fn<void(const float*, const float*, float*, int)>("run_tiled")(d_m.get(), d_n.get(),
                                                                             d_p.get(), width);
  });
  const std::vector<float> p = d_p.download();
  for (int row = 0; row < width; row += 37) {
    for (int col = 0; col < width; col += 13) {
      float expect = 0;
      for (int k = 0; k < width; ++k) {
        expect += m[row * width + k] * n[k * width + col];
      }
      EXPECT_NEAR(p[row * width + col], expect, 1e-4f) << row << "," << col;
    }
  }
}

TEST_F(RegionForms, AKoggeStoneScanKeepsEachThreadsTempAcrossTheBarrier) {
  const long n = 128 * 50 - 3;
  std::vector<float> x(n);
  for (long i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 7) - 3.0f;
  }
  device_buffer<float> d_x(n), d_y(n);
  d_x.upload(x);
  same_with_and_without(d_y, [&] {
    d_y.fill(0);
    m_kernels.fn<void(const float*, float*, long)>("run_kogge_stone")(d_x.get(), d_y.get(), n);
  });
  const std::vector<float> y = d_y.download();
  float sum = 0;
  for (long i = 0; i < n; ++i) {
    sum = i % 128 == 0 ? x[i] : sum + x[i];
    ASSERT_EQ(y[i], sum) << "element " << i;
  }
}

TEST_F(RegionForms, APrivatizedHistogramOverTwoDimensionalBlocksCountsEveryByte) {
  const long n = 32 * 100 + 5;
  std::vector<unsigned char> data(n);
  std::vector<unsigned> expect(256, 0);
  for (long i = 0; i < n; ++i) {
    data[i] = static_cast<unsigned char>((i * 37) % 251);
    ++expect[data[i]];
  }
  device_buffer<unsigned char> d_data(n);
  d_data.upload(data);
  device_buffer<unsigned> bins(256);
  same_with_and_without(bins, [&] {
    m_kernels.fn<void(const unsigned char*, long, unsigned*)>("run_histo_2d")(d_data.get(), n,
                                                                              bins.get());
  });
  EXPECT_EQ(bins.download(), expect);
}

TEST_F(RegionForms, EachRegionRunsOnTheStudentsLines) {
  const int blocks = 40;
  device_buffer<int> out(blocks * 128);
  same_with_and_without(out, [&] {
    out.fill(0);
    m_kernels.fn<void(int*, int)>("run_lines")(out.get(), blocks);
  });
  const std::vector<int> seen = out.download();
  for (int b = 0; b < blocks; ++b) {
    EXPECT_EQ(seen[b * 128 + 5], line("LINE:region_first")) << "block " << b;
    EXPECT_EQ(seen[b * 128 + 64 + 5], line("LINE:region_last")) << "block " << b;
  }
}

// Block 17 of 40 is one the checks leave out: its assert fails inside a region form, and the
// report names the same thread, block and line as the fibers'.
TEST_F(RegionForms, AFailedAssertInARegionNamesTheThreadBlockAndLine) {
  const int blocks = 40;
  std::vector<float> in(blocks * 256, 1.0f);
  std::vector<cugrade::emu::diagnostic> seen;
  for (const bool regions : {false, true}) {
    cugrade::emu::reset_device(); // the failed assert's error is sticky
    device_buffer<float> d_in(in.size()), out(blocks);
    d_in.upload(in);
    cugrade::emu::set_region_forms(regions);
    m_kernels.fn<void(const float*, float*, int, int)>("run_reduce_assert")(d_in.get(), out.get(),
                                                                            blocks, 17);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorAssert);
    const auto diags = cugrade::emu::take_diagnostics();
    ASSERT_EQ(diags.size(), 1u);
    seen.push_back(diags[0]);
  }
  for (const auto& d : seen) {
    EXPECT_EQ(d.error_kind, "device_assert");
    EXPECT_EQ(d.line, line("LINE:region_assert"));
    EXPECT_EQ(d.block, (std::array<unsigned, 3>{17, 0, 0}));
    EXPECT_EQ(d.thread, (std::array<unsigned, 3>{77, 0, 0}));
  }
  EXPECT_EQ(seen[0].message, seen[1].message);
}

} // namespace
