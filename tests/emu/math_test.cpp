// Device math intrinsics and CUDA's min/max overload set.
#include <gtest/gtest.h>

#include <vector>

#include "emu_test_support.h"

namespace {

TEST(DeviceMath, IntrinsicsAndOverloadsGiveCudasResults) {
  cugrade::emu::reset_device();
  emu_test::module m("emu_test_math_kernels");
  emu_test::device_buffer<float> f(20);
  emu_test::device_buffer<long long> i(14);
  m.fn<void(float*, long long*)>("run_math")(f.get(), i.get());
  const std::vector<float> expect_f = {1.0f, 2.0f, 4.0f, 0.5f,  0.25f, 1.0f, 0.0f,
                                       0.0f, 1.0f, 6.0f, 5.0f,  7.0f,  8.0f, 2.5f,
                                       2.0f, 1.0f, 2.5f, 0.25f, 9.5f,  1.0f};
  const std::vector<long long> expect_i = {3, 4, 5, 4, 31, 4, 3, 0x80000000LL, 7, 5, 2, 2, 2, 64};
  EXPECT_EQ(f.download(), expect_f);
  EXPECT_EQ(i.download(), expect_i);
  EXPECT_EQ(m.fn<int(int, int)>("host_min")(3, 9), 6);
}

TEST(DeviceMath, BitIntrinsicsDirectedConversionsAndTheClockGiveCudasResults) {
  cugrade::emu::reset_device();
  emu_test::module m("emu_test_math_kernels");
  emu_test::device_buffer<float> f(7);
  emu_test::device_buffer<long long> i(12);
  m.fn<void(float*, long long*)>("run_intrinsics")(f.get(), i.get());
  const std::vector<long long> expect_i = {0x23456789,  0x6789ABCD, 0x89ABCDEF, 0x23456789,
                                           0x77553311,  80,         4,          -2,
                                           -1,          2,          -2,         1};
  const std::vector<float> expect_f = {16777216.0f,   16777218.0f, -16777218.0f, 1099511627776.0f,
                                       1099511758848.0f, 0.5f,     4294967040.0f};
  EXPECT_EQ(i.download(), expect_i);
  EXPECT_EQ(f.download(), expect_f);
}

} // namespace
