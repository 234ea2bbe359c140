// Where a batch's gradings run: CPU tokens for fetching and building, a few slots per GPU, the
// least busy GPU for each grading, and how long each GPU had a grading on it.
#include "grader/batch/slots.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

namespace cugrade::batch {
namespace {

TEST(Slots, EachGradingTakesTheLeastBusyGpu) {
  slots s(2, {"0", "1"}, 4);
  EXPECT_EQ(s.concurrency(), 2U + 2 * 4);
  EXPECT_EQ(s.take_gpu(), 0U);
  EXPECT_EQ(s.take_gpu(), 1U);
  EXPECT_EQ(s.take_gpu(), 0U); // two on GPU 0, one on GPU 1
  s.give_gpu(0);
  s.give_gpu(0); // none on GPU 0
  EXPECT_EQ(s.take_gpu(), 0U);
  EXPECT_EQ(s.take_gpu(), 0U) << "one on each: the first GPU first";
}

TEST(Slots, AGradingWaitsForAFreeSlotOfAnyGpu) {
  slots s(1, {"0", "1"}, 1);
  ASSERT_EQ(s.take_gpu(), 0U);
  ASSERT_EQ(s.take_gpu(), 1U);
  auto third = std::async(std::launch::async, [&] { return s.take_gpu(); });
  EXPECT_EQ(third.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
      << "both GPUs are full";
  s.give_gpu(1);
  EXPECT_EQ(third.get(), 1U);
}

TEST(Slots, ARetiredGpuIsGivenNoGradingWhileAnotherIsInService) {
  slots s(1, {"0", "1", "2"}, 2);
  EXPECT_EQ(s.retire_gpu(0), 2U);
  EXPECT_FALSE(s.in_service(0));
  EXPECT_EQ(s.gpus_in_service(), 2U);
  EXPECT_TRUE(s.in_service(1));
  EXPECT_EQ(s.take_gpu(), 1U);
  EXPECT_EQ(s.take_gpu(), 2U);
  EXPECT_EQ(s.take_gpu(), 1U);
  EXPECT_EQ(s.take_gpu(), 2U);
  auto fifth = std::async(std::launch::async, [&] { return s.take_gpu(); });
  EXPECT_EQ(fifth.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
      << "GPUs 1 and 2 are full, and GPU 0's free slots are out of service";
  s.give_gpu(2);
  EXPECT_EQ(fifth.get(), 2U);
}

TEST(Slots, AGradingWaitingForARetiredGpuTakesAnotherAndAnyOnceNoneIsLeft) {
  slots s(1, {"0", "1"}, 1);
  ASSERT_EQ(s.take_gpu(), 0U);
  ASSERT_EQ(s.take_gpu(), 1U);
  s.give_gpu(0);
  EXPECT_EQ(s.retire_gpu(0), 1U);
  auto waiting = std::async(std::launch::async, [&] { return s.take_gpu(); });
  EXPECT_EQ(waiting.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
      << "GPU 0 is free but out of service; GPU 1 is full";
  EXPECT_EQ(s.retire_gpu(1), 0U);
  ASSERT_EQ(waiting.wait_for(std::chrono::seconds(10)), std::future_status::ready)
      << "with no GPU in service a grading is not left waiting (the batch is stopping)";
  EXPECT_EQ(waiting.get(), 0U);
}

TEST(Slots, AFetchWaitsForACpuToken) {
  slots s(1, {}, 4);
  EXPECT_EQ(s.concurrency(), 1U) << "emulation: the CPU tokens only";
  s.take_cpu();
  auto second = std::async(std::launch::async, [&] { s.take_cpu(); });
  EXPECT_EQ(second.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout);
  s.give_cpu();
  EXPECT_EQ(second.wait_for(std::chrono::seconds(10)), std::future_status::ready);
}

TEST(Slots, AGpuIsBusyWhileItHasAGradingAndOnlyThen) {
  slots s(1, {"0", "1"}, 4);
  ASSERT_EQ(s.take_gpu(), 0U);
  ASSERT_EQ(s.take_gpu(), 1U);
  s.give_gpu(1); // GPU 1 was busy a moment
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  const auto busy = s.gpu_busy_seconds();
  ASSERT_EQ(busy.size(), 2U);
  EXPECT_GE(busy[0], 0.05) << "GPU 0 still has its grading";
  EXPECT_LT(busy[1], 0.05) << "GPU 1 has been idle since its grading left";
  s.give_gpu(0);
  const auto stopped = s.gpu_busy_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(s.gpu_busy_seconds(), stopped) << "nothing runs: the busy time stands still";
}

TEST(VisibleGpus, AskedForGpusComeFirstThenTheEnvironmentsList) {
  EXPECT_EQ(visible_gpus({"1"}), std::vector<std::string>{"1"});
  ::setenv("CUDA_VISIBLE_DEVICES", " 0, 2 ,", 1);
  EXPECT_EQ(visible_gpus({}), (std::vector<std::string>{"0", "2"}));
  ::unsetenv("CUDA_VISIBLE_DEVICES");
}

} // namespace
} // namespace cugrade::batch
