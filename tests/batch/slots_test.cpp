// Where a batch's gradings run: per-GPU slots, the least busy GPU at build end, and a move to
// an idler GPU between stages only where it evens two GPUs out.
#include "grader/batch/slots.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

namespace cugrade::batch {
namespace {

const auto any_gpu = [](std::size_t) { return true; };

TEST(Slots, EachGradingTakesTheLeastBusyGpu) {
  slots s(2, {"0", "1"}, 4);
  EXPECT_EQ(s.concurrency(), 2U + 2 * 4);
  EXPECT_EQ(s.take_gpu(), 0U);
  EXPECT_EQ(s.take_gpu(), 1U);
  EXPECT_EQ(s.take_gpu(), 0U);
  s.give_gpu(0);
  s.give_gpu(0);
  EXPECT_EQ(s.take_gpu(), 0U);
}

TEST(Slots, AGradingWaitsForAFreeSlot) {
  slots s(1, {"0"}, 1);
  ASSERT_EQ(s.take_gpu(), 0U);
  auto second = std::async(std::launch::async, [&] { return s.take_gpu(); });
  EXPECT_EQ(second.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout);
  s.give_gpu(0);
  EXPECT_EQ(second.get(), 0U);
}

// At a class's end one GPU finishes its gradings while the other still has several: a grading
// moves when the idler GPU has two fewer (counting the one moving), so both end with the same.
TEST(Slots, AGradingMovesOnlyWhereThatEvensTheGpusOut) {
  slots s(1, {"0", "1"}, 4);
  for (int i = 0; i < 8; ++i) {
    (void)s.take_gpu(); // four on each
  }
  EXPECT_FALSE(s.move_to_idler(1, any_gpu)) << "4 against 4";
  s.give_gpu(0);
  EXPECT_FALSE(s.move_to_idler(1, any_gpu)) << "3 against 4: a move would only swap them";
  s.give_gpu(0);
  EXPECT_EQ(s.move_to_idler(1, any_gpu), 0U) << "2 against 4 becomes 3 against 3";
  EXPECT_FALSE(s.move_to_idler(1, any_gpu));
  EXPECT_FALSE(s.move_to_idler(0, any_gpu));
  EXPECT_EQ(s.moves(), 1U);
  // The slot it left is free: a grading waiting for GPU 1 gets it.
  s.give_gpu(0);
  s.give_gpu(0);
  s.give_gpu(0);
  EXPECT_EQ(s.move_to_idler(1, any_gpu), 0U) << "0 against 3";
  EXPECT_EQ(s.moves(), 2U);
}

TEST(Slots, AGradingMovesToTheIdlestGpuItMayTake) {
  slots s(1, {"0", "1", "2"}, 4);
  for (int i = 0; i < 9; ++i) {
    (void)s.take_gpu(); // three on each
  }
  for (int i = 0; i < 3; ++i) {
    s.give_gpu(0);
  }
  s.give_gpu(1);
  s.give_gpu(1); // 0, 1 and 3
  EXPECT_FALSE(s.move_to_idler(2, [](std::size_t) { return false; }));
  EXPECT_EQ(s.move_to_idler(2, [](std::size_t to) { return to == 1; }), 1U) << "1 + 2 <= 3";
  EXPECT_EQ(s.move_to_idler(2, any_gpu), 0U) << "0, 2 and 2: the idlest is GPU 0";
  EXPECT_EQ(s.moves(), 2U);
}

TEST(Slots, AMoveCountsTheBusyTimeOfBothGpus) {
  slots s(1, {"0", "1"}, 4);
  (void)s.take_gpu();
  (void)s.take_gpu();
  (void)s.take_gpu(); // 2 on GPU 0, 1 on GPU 1
  s.give_gpu(1);      // GPU 1 idle
  (void)s.take_gpu(); // GPU 1 again: 2 and 1
  s.give_gpu(1);
  ASSERT_EQ(s.move_to_idler(0, any_gpu), 1U); // 2 against 0 becomes 1 against 1
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto busy = s.gpu_busy_seconds();
  ASSERT_EQ(busy.size(), 2U);
  EXPECT_GE(busy[1], 0.04) << "GPU 1 is busy from the move on";
  EXPECT_GE(busy[0], 0.04) << "GPU 0 keeps one grading";
  s.give_gpu(0);
  s.give_gpu(1);
  const auto after = s.gpu_busy_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(s.gpu_busy_seconds(), after) << "nothing runs: the busy time stops";
}

} // namespace
} // namespace cugrade::batch
