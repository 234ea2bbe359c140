// Launch syntax variants run, every thread sees its own coordinates, and invalid launches fail the
// way CUDA 13 fails them.
#include <gtest/gtest.h>

#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;

class Launch : public ::testing::Test {
protected:
  void SetUp() override {
    cugrade::emu::reset_device();
    cugrade::emu::set_schedule_order(cugrade::emu::schedule_order::forward);
  }
  module m_kernels{"emu_test_launch_kernels"};
};

std::vector<int> run_fill(const module& m, const char* launcher) {
  device_buffer<int> out(32);
  out.fill(0);
  m.fn<void(int*)>(launcher)(out.get());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << launcher;
  return out.download();
}

TEST_F(Launch, RunsQualifiedTemplatedAndMultiLineLaunches) {
  EXPECT_EQ(run_fill(m_kernels, "launch_qualified"), std::vector<int>(32, 7));
  EXPECT_EQ(run_fill(m_kernels, "launch_nested"), std::vector<int>(32, 8));
  EXPECT_EQ(run_fill(m_kernels, "launch_template"), std::vector<int>(32, 5));
  EXPECT_EQ(run_fill(m_kernels, "launch_template2"), std::vector<int>(32, 3));
  EXPECT_EQ(run_fill(m_kernels, "launch_multiline"), std::vector<int>(32, 9));
}

TEST_F(Launch, EveryThreadSeesItsCoordinatesAndTheDimensions) {
  const unsigned g[3] = {3, 2, 2};
  const unsigned b[3] = {5, 3, 2};
  const unsigned threads = b[0] * b[1] * b[2];
  const unsigned blocks = g[0] * g[1] * g[2];
  device_buffer<unsigned> out(9 * threads * blocks);
  m_kernels.fn<void(unsigned*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned)>(
      "launch_records")(out.get(), g[0], g[1], g[2], b[0], b[1], b[2]);
  const std::vector<unsigned> r = out.download();
  for (unsigned block = 0; block < blocks; ++block) {
    for (unsigned t = 0; t < threads; ++t) {
      const unsigned* rec = &r[9 * (block * threads + t)];
      EXPECT_EQ(rec[0], t % b[0]);
      EXPECT_EQ(rec[1], t / b[0] % b[1]);
      EXPECT_EQ(rec[2], t / (b[0] * b[1]));
      EXPECT_EQ(rec[3], block % g[0]);
      EXPECT_EQ(rec[4], block / g[0] % g[1]);
      EXPECT_EQ(rec[5], block / (g[0] * g[1]));
      EXPECT_EQ(rec[6], 5003002u);
      EXPECT_EQ(rec[7], 3002002u);
      EXPECT_EQ(rec[8], 32u);
    }
  }
}

TEST_F(Launch, TooManyThreadsPerBlockFailsWithoutRunningAndNamesTheLine) {
  device_buffer<int> out(32);
  out.fill(0);
  m_kernels.fn<void(int*)>("launch_too_many_threads")(out.get());
  // CUDA 13 reports every invalid launch configuration as cudaErrorInvalidValue (measured).
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "a launch error is not sticky";
  EXPECT_EQ(out.download(), std::vector<int>(32, 0)) << "the kernel must not run";
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "launch_failure");
  EXPECT_EQ(diags[0].kernel, "ns::fill");
  EXPECT_EQ(diags[0].file, "launch_kernels.cu");
  EXPECT_EQ(diags[0].line, emu_test::line_of(emu_test::kernel_source("launch_kernels.cu"),
                                             "LINE:too_many_threads"));
  EXPECT_NE(diags[0].message.find("2048 threads per block"), std::string::npos) << diags[0].message;
}

TEST_F(Launch, ZeroAndOversizedDimensionsFail) {
  device_buffer<int> out(32);
  auto launch =
      m_kernels.fn<void(int*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned)>(
          "launch_geometry");
  const unsigned bad[][6] = {{0, 1, 1, 32, 1, 1},     {1, 1, 1, 0, 1, 1},  {1, 65536, 1, 32, 1, 1},
                             {1, 1, 65536, 32, 1, 1}, {1, 1, 1, 1, 1, 65}, {1, 1, 1, 1025, 1, 1},
                             {1, 1, 1, 32, 33, 1}};
  for (const auto& c : bad) {
    launch(out.get(), c[0], c[1], c[2], c[3], c[4], c[5]);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue)
        << c[0] << "," << c[1] << "," << c[2] << " x " << c[3] << "," << c[4] << "," << c[5];
  }
  EXPECT_EQ(cugrade::emu::take_diagnostics().size(), std::size(bad));
  launch(out.get(), 2, 1, 1, 32, 32, 1);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "1024 threads per block is allowed";
}

TEST_F(Launch, DynamicSharedMemoryAboveTheLimitNeedsTheAttribute) {
  device_buffer<float> out(32);
  auto launch = m_kernels.fn<void(float*, unsigned)>("launch_dynamic");
  auto raise = m_kernels.fn<int(int)>("raise_dynamic_limit");
  launch(out.get(), 48 * 1024);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  launch(out.get(), 48 * 1024 + 4);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("cudaFuncAttributeMaxDynamicSharedMemorySize"),
            std::string::npos);
  EXPECT_EQ(raise(100000), cudaSuccess);
  launch(out.get(), 100000);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  launch(out.get(), 100004);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(raise(232448 + 1), cudaErrorInvalidValue) << "above the opt-in maximum";
}

TEST_F(Launch, StaticSharedMemoryAboveFortyEightKibFails) {
  device_buffer<float> out(32);
  m_kernels.fn<void(float*)>("launch_too_much_static")(out.get());
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  const auto diags = cugrade::emu::take_diagnostics();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].error_kind, "launch_failure");
  EXPECT_NE(diags[0].message.find("49152"), std::string::npos) << diags[0].message;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess) << "not a sticky error";
}

} // namespace
