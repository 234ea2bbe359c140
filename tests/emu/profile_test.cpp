// The warp profiler: the requests, sectors and bank wavefronts a GPU's load/store unit would
// need for accesses whose costs are known, counted per source line while profiling is on, and
// nothing counted while it is off.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;

class WarpProfile : public ::testing::Test {
protected:
  void SetUp() override {
    cugrade::emu::reset_device();
    cugrade::emu::set_profiling(true);
    (void)cugrade::emu::take_profiles();
  }
  void TearDown() override {
    cugrade::emu::set_profiling(false);
    (void)cugrade::emu::take_profiles();
  }
  static int line(const char* marker) {
    return emu_test::line_of(emu_test::kernel_source("profile_kernels.cu"), marker);
  }
  // The one launch profiled since SetUp, and its counts at `marker`'s line.
  static cugrade::emu::access_counts at(const char* marker, const std::string& space,
                                        const std::string& op) {
    const auto launches = cugrade::emu::take_profiles();
    EXPECT_EQ(launches.size(), 1u);
    for (const auto& launch : launches) {
      for (const auto& a : launch.accesses) {
        if (a.line == line(marker) && a.space == space && a.op == op) {
          return a;
        }
      }
    }
    ADD_FAILURE() << "no " << space << " " << op << " counted at " << marker;
    return {};
  }
  module m_kernels{"emu_test_profile_kernels"};
};

TEST_F(WarpProfile, ConsecutiveFloatsTakeFourSectorsPerRequest) {
  const int n = 1000; // 4 blocks; the last warp has 8 lanes
  device_buffer<float> in(n), out(n);
  m_kernels.fn<void(const float*, float*, int)>("run_coalesced_copy")(in.get(), out.get(), n);
  const auto load = at("LINE:coalesced", "global", "load");
  EXPECT_EQ(load.requests, 32u); // ceil(1000 / 32) warps with work
  EXPECT_EQ(load.lanes, 1000u);
  EXPECT_EQ(load.units, 31u * 4 + 1); // the 8-lane warp reads 32 bytes: one sector
  EXPECT_EQ(load.ideal_units, load.units);
  EXPECT_EQ(load.bytes, 4000u);
}

TEST_F(WarpProfile, AStrideOf32FloatsTakesASectorPerLane) {
  const int n = 256;
  device_buffer<float> in(n * 32), out(n);
  m_kernels.fn<void(const float*, float*, int)>("run_strided_read")(in.get(), out.get(), n);
  const auto load = at("LINE:strided", "global", "load");
  EXPECT_EQ(load.requests, 8u);
  EXPECT_EQ(load.units, 8u * 32);
  EXPECT_EQ(load.ideal_units, 8u * 4);
}

TEST_F(WarpProfile, AColumnOfA32By32TileIsA32WayBankConflict) {
  device_buffer<float> out(32);
  m_kernels.fn<void(float*)>("run_column_of_tile")(out.get());
  const auto read = at("LINE:tile_column", "shared", "load");
  EXPECT_EQ(read.requests, 1u);
  EXPECT_EQ(read.units, 32u);
  EXPECT_EQ(read.ideal_units, 1u);
}

TEST_F(WarpProfile, SixteenByteReadsAreServedAHalfWarpAtATime) {
  device_buffer<float> out(32);
  m_kernels.fn<void(float*)>("run_float4_halves")(out.get());
  const auto read = at("LINE:float4_halves", "shared", "load");
  EXPECT_EQ(read.requests, 1u);
  EXPECT_EQ(read.lanes, 32u);
  EXPECT_EQ(read.units, 2u); // one wavefront per half-warp, as the H200 counts LDS.128
}

TEST_F(WarpProfile, ATransposedTileOfSixteenBytePiecesTakesSixteenWavefronts) {
  device_buffer<float> out(32);
  m_kernels.fn<void(float*)>("run_float4_column")(out.get());
  const auto read = at("LINE:float4_column", "shared", "load");
  EXPECT_EQ(read.requests, 1u);
  EXPECT_EQ(read.units, 16u); // 8 a half-warp, twice
}

TEST_F(WarpProfile, LanesThatSkippedGuardedLoadsStillStoreAsOneRequest) {
  device_buffer<float> in(32);
  device_buffer<float> out(32);
  in.fill(0);
  m_kernels.fn<void(const float*, float*, int)>("run_guarded_window_then_store")(in.get(),
                                                                                 out.get(), 30);
  const auto store = at("LINE:window_store", "global", "store");
  EXPECT_EQ(store.requests, 1u); // lanes 27-31 made fewer loads; the store is still one request
  EXPECT_EQ(store.lanes, 32u);
  EXPECT_EQ(store.units, 4u);
}

TEST_F(WarpProfile, UnrolledLoadsOfAStaticTileRowAreOneSixteenByteLoad) {
  device_buffer<float> out(32);
  m_kernels.fn<void(float*)>("run_tile_product")(out.get());
  const auto read = at("LINE:tile_product", "shared", "load");
  EXPECT_EQ(read.requests, 4u + 16u); // Mds: 4 LDS.128; Nds: 16 LDS.32
  EXPECT_EQ(read.units, 4u * 2 + 16u);
  EXPECT_EQ(read.bytes, 32u * 32 * 4); // every lane's 32 floats, however they are grouped
  // Row 0 of Mds is 0..15, column tx of Nds is 0, tx, ..., 15 tx: lane (tx, 0) sums k * k * tx.
  EXPECT_FLOAT_EQ(out.download()[3], 1240.0f * 3);
}

TEST_F(WarpProfile, DynamicSharedMemoryKeepsItsFourByteLoads) {
  device_buffer<float> out(32);
  m_kernels.fn<void(float*)>("run_dynamic_tile_product")(out.get());
  const auto read = at("LINE:dynamic_tile_product", "shared", "load");
  EXPECT_EQ(read.requests, 32u);
  EXPECT_EQ(read.units, 32u);
}

TEST_F(WarpProfile, LoadsAlignedInOnlySomeLanesStayFourByteLoads) {
  device_buffer<float> out(32);
  m_kernels.fn<void(float*)>("run_shifted_window")(out.get());
  const auto read = at("LINE:shifted_window", "shared", "load");
  EXPECT_EQ(read.requests, 4u);
  EXPECT_EQ(read.lanes, 4u * 32);
}

TEST_F(WarpProfile, APaddedTileHasNoConflict) {
  device_buffer<float> out(32);
  m_kernels.fn<void(float*)>("run_column_of_padded_tile")(out.get());
  const auto read = at("LINE:padded_column", "shared", "load");
  EXPECT_EQ(read.requests, 1u);
  EXPECT_EQ(read.units, 1u);
}

TEST_F(WarpProfile, GlobalAtomicsAreCountedPerLane) {
  const int n = 512;
  device_buffer<unsigned> counter(1);
  counter.fill(0);
  m_kernels.fn<void(unsigned*, int)>("run_count_all")(counter.get(), n);
  const auto atomic = at("LINE:global_atomic", "global", "atomic");
  EXPECT_EQ(atomic.lanes, 512u);
  EXPECT_EQ(atomic.requests, 16u);
  EXPECT_EQ(counter.download()[0], 512u);
}

TEST_F(WarpProfile, AThreadsOwnArrayIsNotGlobalMemory) {
  device_buffer<float> out(64);
  m_kernels.fn<void(float*)>("run_local_array")(out.get());
  const auto launches = cugrade::emu::take_profiles();
  ASSERT_EQ(launches.size(), 1u);
  for (const auto& a : launches[0].accesses) {
    if (a.space == "global" && a.op == "load") {
      ADD_FAILURE() << "a load from the thread's own array counted as global at line " << a.line;
    }
  }
  EXPECT_EQ(launches[0].block[0], 64u);
}

TEST_F(WarpProfile, NothingIsCountedWithProfilingOff) {
  cugrade::emu::set_profiling(false);
  device_buffer<float> in(256), out(256);
  m_kernels.fn<void(const float*, float*, int)>("run_coalesced_copy")(in.get(), out.get(), 256);
  EXPECT_TRUE(cugrade::emu::take_profiles().empty());
}

} // namespace
