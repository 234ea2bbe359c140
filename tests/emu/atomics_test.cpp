// Every atomic function and type with CUDA's semantics, and exact counts under contention from
// many threads of many blocks running on several workers.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "emu_test_support.h"

namespace {

using emu_test::device_buffer;
using emu_test::module;

struct atomic_cells {
  int i[12];
  unsigned u[12];
  unsigned long long ull[8];
  float f[3];
  double d[1];
};

class Atomics : public ::testing::Test {
protected:
  void SetUp() override { cugrade::emu::reset_device(); }
  module m_kernels{"emu_test_atomic_kernels"};
};

TEST_F(Atomics, EveryFunctionReturnsTheOldValueAndStoresCudasResult) {
  ASSERT_EQ(m_kernels.fn<unsigned long long()>("cell_bytes")(), sizeof(atomic_cells));
  atomic_cells c{};
  const int ints[12] = {10, 10, 1, 3, 3, 0x3C, 0x03, 0x0F, 1, 4, 0, 0};
  const unsigned uns[12] = {1, 0, 5, 9, 1, 12, 9, 5, 3, 2, 0, 9};
  const unsigned long long ulls[8] = {1, 2, 10, 9, 1, 10, 3, 10};
  std::memcpy(c.i, ints, sizeof ints);
  std::memcpy(c.u, uns, sizeof uns);
  std::memcpy(c.ull, ulls, sizeof ulls);
  c.f[0] = 2.0f;
  c.f[1] = 7.0f;
  c.d[0] = 4.0;
  device_buffer<atomic_cells> cells(1);
  cells.upload({c});
  device_buffer<int> olds(40);
  m_kernels.fn<void(atomic_cells*, int*)>("run_sequence")(cells.get(), olds.get());
  const atomic_cells r = cells.download()[0];
  const std::vector<int> o = olds.download();

  const int expect_old[33] = {10, 10, 1,  3, 3, 0x3C, 0x03, 0x0F, 1, 4,       // int
                              1,  0,  5,  9, 1, 12,   9,    5,    3, 2, 0, 9, // unsigned
                              1,  2,  10, 9, 1, 10,   3,    10,               // unsigned long long
                              2,  7,  4};                                     // float, double
  for (int k = 0; k < 33; ++k) {
    EXPECT_EQ(o[k], expect_old[k]) << "old value of operation " << k;
  }
  const int expect_i[10] = {15, 7, 42, -7, 99, 0x0C, 0x33, 0xF0, 2, 4};
  for (int k = 0; k < 10; ++k) {
    EXPECT_EQ(r.i[k], expect_i[k]) << "int cell " << k;
  }
  const unsigned expect_u[12] = {5, 0xFFFFFFFFu, 8, 2, 2, 4, 15, 3, 4, 0, 5, 5};
  for (int k = 0; k < 12; ++k) {
    EXPECT_EQ(r.u[k], expect_u[k]) << "unsigned cell " << k;
  }
  const unsigned long long expect_ull[8] = {1 + (1ull << 40), 77, 11, 3, 3, 8, 15, 6};
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(r.ull[k], expect_ull[k]) << "unsigned long long cell " << k;
  }
  EXPECT_EQ(r.f[0], 3.5f);
  EXPECT_EQ(r.f[1], 2.5f);
  EXPECT_EQ(r.d[0], 4.25);
}

TEST_F(Atomics, ContendedUpdatesFromManyBlocksAndThreadsAreExact) {
  cugrade::emu::set_worker_count(4); // real concurrency between blocks, even on 2 cores
  const int blocks = 64;
  const int threads = 256;
  device_buffer<unsigned> counter(2);
  device_buffer<float> fsum(1);
  device_buffer<unsigned long long> big(1);
  device_buffer<unsigned> totals(blocks);
  counter.fill(0);
  fsum.fill(0);
  big.fill(0);
  m_kernels.fn<void(unsigned*, float*, unsigned long long*, unsigned*, int, int)>("run_contention")(
      counter.get(), fsum.get(), big.get(), totals.get(), blocks, threads);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const unsigned n = blocks * threads;
  EXPECT_EQ(counter.download()[0], n);
  EXPECT_EQ(counter.download()[1], n) << "atomicInc below its limit counts like atomicAdd";
  EXPECT_EQ(fsum.download()[0], static_cast<float>(n)) << "integers below 2^24 add exactly";
  EXPECT_EQ(big.download()[0], 3ull * n);
  for (const unsigned t : totals.download()) {
    EXPECT_EQ(t, 2u * threads) << "shared-memory atomics within a block";
  }
}

// Contended global atomics (docs/emulation.md, "Contended atomics"). Whether a measured launch is
// found contended depends on two cores being free at once, so these tests force the decision
// (contention_policy::always) and check what it must not change: exact results, no deadlock.
class ContendedAtomics : public Atomics {
protected:
  void TearDown() override {
    cugrade::emu::set_contention_policy(cugrade::emu::contention_policy::measure);
    cugrade::emu::set_worker_count(0);
  }
  unsigned sixteen_bins_total(int blocks, int threads, int per_thread) {
    device_buffer<unsigned> bins(16);
    bins.fill(0);
    m_kernels.fn<void(unsigned*, int, int, int)>("run_sixteen_bins")(bins.get(), blocks, threads,
                                                                     per_thread);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    unsigned total = 0;
    for (const unsigned b : bins.download()) {
      total += b;
    }
    return total;
  }
};

TEST_F(ContendedAtomics, ALaunchFoundContendedStillCountsExactly) {
  cugrade::emu::set_worker_count(4);
  cugrade::emu::set_contention_policy(cugrade::emu::contention_policy::always);
  EXPECT_EQ(sixteen_bins_total(512, 128, 8), 512u * 128u * 8u);
  EXPECT_TRUE(cugrade::emu::last_launch_contended());
}

TEST_F(ContendedAtomics, OneWorkerOrThePolicyNeverKeepsALaunchUncontended) {
  cugrade::emu::set_worker_count(1);
  cugrade::emu::set_contention_policy(cugrade::emu::contention_policy::always);
  EXPECT_EQ(sixteen_bins_total(64, 128, 4), 64u * 128u * 4u);
  EXPECT_FALSE(cugrade::emu::last_launch_contended()) << "one worker has nothing to contend with";
  cugrade::emu::set_worker_count(4);
  cugrade::emu::set_contention_policy(cugrade::emu::contention_policy::never);
  EXPECT_EQ(sixteen_bins_total(64, 128, 4), 64u * 128u * 4u);
  EXPECT_FALSE(cugrade::emu::last_launch_contended());
}

// The first block to start spins until every other block has finished. When it runs on the
// launching thread, the other worker waits only while that thread keeps starting blocks, then
// claims the rest itself; when it runs on the other worker, the launching thread runs the rest.
// Four launches, so that both placements are likely; each must finish.
TEST_F(ContendedAtomics, AWaitingWorkerClaimsBlocksAgainWhenTheLaunchingThreadStalls) {
  cugrade::emu::set_worker_count(2);
  cugrade::emu::set_contention_policy(cugrade::emu::contention_policy::always);
  constexpr int blocks = 8;
  for (int launch = 0; launch < 4; ++launch) {
    device_buffer<unsigned> started(1);
    device_buffer<unsigned> finished(1);
    device_buffer<unsigned> seen(1);
    started.fill(0);
    finished.fill(0);
    seen.fill(0);
    m_kernels.fn<void(unsigned*, unsigned*, unsigned*, int)>("run_first_waits_for_the_rest")(
        started.get(), finished.get(), seen.get(), blocks);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << "launch " << launch;
    EXPECT_EQ(started.download()[0], unsigned{blocks}) << "launch " << launch;
    EXPECT_EQ(seen.download()[0], unsigned{blocks - 1}) << "launch " << launch;
  }
}

// Plain read-modify-writes of global memory in the blocks the emulator checks are taken with the
// warp, as a GPU's warp takes them (src/warp_update.cpp).
class LostUpdates : public Atomics {
protected:
  std::vector<unsigned> plain_increments(const std::vector<int>& keys, int blocks, int threads,
                                         std::vector<unsigned>* olds_out = nullptr) {
    device_buffer<int> k(keys.size());
    k.upload(keys);
    device_buffer<unsigned> bins(16);
    bins.fill(0);
    device_buffer<unsigned> olds(keys.size());
    olds.fill(0);
    m_kernels.fn<void(const int*, int, unsigned*, unsigned*, int, int)>("run_plain_increments")(
        k.get(), static_cast<int>(keys.size()), bins.get(), olds.get(), blocks, threads);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    if (olds_out != nullptr) {
      *olds_out = olds.download();
    }
    return bins.download();
  }
};

TEST_F(LostUpdates, TheLanesOfAWarpIncrementingOneBinLeaveOne) {
  std::vector<unsigned> olds;
  const auto bins = plain_increments(std::vector<int>(32, 3), 1, 32, &olds);
  EXPECT_EQ(bins[3], 1u) << "32 lanes read 0 together and all store 1, as a GPU's warp does";
  for (const unsigned old : olds) {
    EXPECT_EQ(old, 0u) << "every lane's ++ returns the value the warp read";
  }
}

TEST_F(LostUpdates, TheLanesOfAWarpIncrementingOneBinOfADeviceArrayLeaveOne) {
  device_buffer<int> keys(32);
  keys.upload(std::vector<int>(32, 3));
  device_buffer<unsigned> bins(16);
  bins.fill(0);
  m_kernels.fn<void(const int*, int, unsigned*, int, int)>("run_device_array_plain_increments")(
      keys.get(), 32, bins.get(), 1, 32);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(bins.download()[3], 1u) << "a __device__ array's lanes read together too";
}

TEST_F(LostUpdates, TheLanesOfAWarpIncrementingThroughAPointerLeaveOne) {
  device_buffer<unsigned> totals(2);
  totals.fill(0);
  m_kernels.fn<void(int, unsigned*, int, int)>("run_count_through_pointers")(32, totals.get(), 1,
                                                                              32);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto t = totals.download();
  EXPECT_EQ(t[0], 1u) << "`(*count)++` by 32 lanes: the warp reads 0 together, all store 1";
  EXPECT_EQ(t[1], 1u) << "`*sum += 1` the same";
}

TEST_F(LostUpdates, LanesSharingABinInAWarpKeepOneIncrementAndEachWarpAtMostOne) {
  std::vector<int> keys(64);
  for (int i = 0; i < 32; ++i) {
    keys[i] = i % 16; // two lanes per bin in the first warp
    keys[32 + i] = 15;
  }
  const auto bins = plain_increments(keys, 1, 64);
  for (int b = 0; b < 15; ++b) {
    EXPECT_EQ(bins[b], 1u) << "bin " << b << ": its two lanes read it together";
  }
  // Each warp keeps one increment of its own; whether the second warp read the bin before or
  // after the first stored depends on the order the warps run in, as on a GPU.
  EXPECT_GE(bins[15], 1u);
  EXPECT_LE(bins[15], 2u);
}

TEST_F(LostUpdates, AThreadsOwnElementsAndLocalArraysAddUpExactly) {
  const int n = 1000;
  device_buffer<float> out(n);
  out.fill(0.0f);
  m_kernels.fn<void(float*, int)>("run_own_updates")(out.get(), n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (const float v : out.download()) {
    EXPECT_EQ(v, 4.0f);
  }
}

// The lane holding the lock waits in its warp's step for the lanes spinning on the lock; a lane
// that fails atomicCAS again and again yields, and the step goes on without it.
TEST_F(LostUpdates, LanesSpinningOnALockLetTheLaneHoldingItUpdate) {
  const int n = 200;
  device_buffer<int> mutex(1);
  mutex.fill(0);
  device_buffer<float> total(1);
  total.fill(0.0f);
  device_buffer<float> v(n);
  v.upload(std::vector<float>(n, 1.0f));
  m_kernels.fn<void(int*, float*, const float*, int)>("run_locked_total")(mutex.get(), total.get(),
                                                                         v.get(), n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(total.download()[0], static_cast<float>(n)) << "the lock serialises every update";
}

// Thread 0 of each block adds the block's sum to the total with a plain +=: on a GPU the blocks'
// updates overlap and some are lost; here an exited thread's store lands after the next block's
// read. One block, or atomicAdd, gives the exact total.
TEST_F(LostUpdates, BlocksAddingToOneTotalWithAPlainAddLoseSomeOfIt) {
  cugrade::emu::set_worker_count(1);
  const int blocks = 8;
  device_buffer<float> v(blocks * 64);
  v.upload(std::vector<float>(blocks * 64, 1.0f));
  device_buffer<float> total(1);
  const auto run = [&](int b, bool atomic) {
    total.fill(0.0f);
    m_kernels.fn<void(const float*, float*, int, bool)>("run_block_sums")(v.get(), total.get(), b,
                                                                         atomic);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    return total.download()[0];
  };
  EXPECT_LT(run(blocks, false), blocks * 64.0f) << "a plain += between blocks loses sums";
  EXPECT_EQ(run(blocks, true), blocks * 64.0f);
  EXPECT_EQ(run(1, false), 64.0f) << "one block has nothing to race with";
  cugrade::emu::set_worker_count(0);
}

// In a block of one warp, shared memory's plain updates are taken with the warp too; a thread's
// own shared element still adds up exactly.
TEST_F(LostUpdates, InABlockOfOneWarpSharedBinsLoseTheLanesIncrementsToo) {
  const int threads = 32;
  device_buffer<int> k(threads);
  k.upload(std::vector<int>(threads, 3));
  device_buffer<unsigned> bins(16), olds(threads), own(threads);
  bins.fill(0);
  olds.fill(7);
  m_kernels.fn<void(const int*, int, unsigned*, unsigned*, unsigned*, int)>(
      "run_shared_plain_increments")(k.get(), threads, bins.get(), olds.get(), own.get(), threads);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(bins.download()[3], 1u) << "32 lanes read the shared bin together and all store 1";
  for (const unsigned old : olds.download()) {
    EXPECT_EQ(old, 0u);
  }
  for (const unsigned v : own.download()) {
    EXPECT_EQ(v, 2u) << "a lane's own shared element loses nothing";
  }
}

TEST_F(LostUpdates, UncheckedBlocksUpdateInPlace) {
  cugrade::emu::set_shared_checks(false);
  const auto bins = plain_increments(std::vector<int>(32, 3), 1, 32);
  cugrade::emu::set_shared_checks(true);
  EXPECT_EQ(bins[3], 32u) << "with the checks off, threads run one at a time and lose nothing";
}

TEST_F(Atomics, AtomicIncWrapsAtItsLimit) {
  device_buffer<unsigned> c(1);
  c.fill(0);
  m_kernels.fn<void(unsigned*)>("run_ring")(c.get());
  EXPECT_EQ(c.download()[0], 100u % 7u);
}

} // namespace
