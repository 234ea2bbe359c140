// The emulator's <cuda_fp16.h>: a kernel that computes in half gets binary16's values, so it
// loses what it loses on a GPU (kernels/half_kernels.cu).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "emu_test_support.h"

namespace {

TEST(HalfPrecision, ConversionsArithmeticAndPairsGiveBinary16sValues) {
  cugrade::emu::reset_device();
  emu_test::module m("emu_test_half_kernels");
  emu_test::device_buffer<float> f(12);
  emu_test::device_buffer<long long> i(5);
  m.fn<void(float*, long long*)>("run_half_values")(f.get(), i.get());
  const float inf = __builtin_huge_valf();
  const std::vector<float> expect_f = {
      0.333251953125f,  // 1/3 to the nearest half (0x3555)
      0.333251953125f,  // towards zero: the same
      0.33349609375f,   // up: the next half (0x3556)
      -0.33349609375f,  // -1/3 down
      -0.333251953125f, // -1/3 towards zero
      2048.0f,          // 2048 + 1 in half
      22.0f,            // 3 * 5 + 7
      inf,              // 70000 overflows
      256.0f,           // 5000 x 0.1 added in half: stuck at 256, where 0.1 is below half a unit
      4.0f,
      6.0f,
      1.4140625f}; // sqrt(2) in half
  EXPECT_EQ(f.download(), expect_f);
  const std::vector<long long> expect_i = {0x3C00, 2, 3, 1, 1};
  EXPECT_EQ(i.download(), expect_i);
}

TEST(HalfPrecision, WarpShufflesAndAtomicsCarryHalves) {
  cugrade::emu::reset_device();
  emu_test::module m("emu_test_half_kernels");
  emu_test::device_buffer<float> sum(1);
  emu_test::device_buffer<std::uint16_t> counter(1);
  m.fn<void(float*, void*)>("run_half_warp")(sum.get(), counter.get());
  EXPECT_EQ(sum.download(), std::vector<float>{496.0f});
  const std::uint16_t bits = counter.download()[0];
  EXPECT_EQ(bits, 0x5400) << "64 in half is 0x5400"; // 1.0 * 2^6
}

} // namespace
