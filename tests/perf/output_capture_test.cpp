// The runner's capture of a student's debug output (harness/runner/output_capture.h): what a
// call writes to stdout and stderr, through printf, iostreams or write(2), is caught in order
// and capped; the streams go back where they were.
#include "harness/runner/output_capture.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <iostream>
#include <string>
#include <thread>
#include <unistd.h>

namespace cugrade::runner {
namespace {

TEST(OutputCapture, CatchesPrintfIostreamsAndWritesInOrder) {
  output_capture capture;
  ASSERT_TRUE(capture.begin(output_kept_per_case));
  std::printf("tile %d\n", 16);
  std::cout << "launcher: grid " << 3 << "\n";
  std::cerr << "warning\n";
  const char raw[] = "raw\n";
  ASSERT_EQ(::write(STDOUT_FILENO, raw, 4), 4);
  const captured_output got = capture.end();
  EXPECT_EQ(got.text, "tile 16\nlauncher: grid 3\nwarning\nraw\n");
  EXPECT_EQ(got.bytes, got.text.size());
}

TEST(OutputCapture, KeepsTheFirstBytesAndCountsTheRest) {
  output_capture capture;
  ASSERT_TRUE(capture.begin(10));
  for (int i = 0; i < 100000; ++i) { // far more than a pipe holds: the reader keeps draining
    std::printf("thread %d\n", i);
  }
  const captured_output got = capture.end();
  EXPECT_EQ(got.text, "thread 0\nt");
  std::size_t expected = 0;
  for (int i = 0; i < 100000; ++i) {
    expected += std::to_string(i).size() + 8;
  }
  EXPECT_EQ(got.bytes, expected);
}

TEST(OutputCapture, CatchesOtherThreadsAsAKernelsWorkersWrite) {
  output_capture capture;
  ASSERT_TRUE(capture.begin(output_kept_per_case));
  std::thread worker([] { std::printf("from a worker\n"); });
  worker.join();
  EXPECT_EQ(capture.end().text, "from a worker\n");
}

TEST(OutputCapture, PutsTheStreamsBackAndCatchesNothingBetweenCalls) {
  output_capture capture;
  ASSERT_TRUE(capture.begin(output_kept_per_case));
  std::printf("first\n");
  EXPECT_EQ(capture.end().text, "first\n");
  // Between calls stdout is the test's own again: a second capture sees only its own call.
  testing::internal::CaptureStdout();
  std::printf("between\n");
  std::fflush(stdout);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "between\n");
  ASSERT_TRUE(capture.begin(output_kept_per_case));
  std::printf("second\n");
  EXPECT_EQ(capture.end().text, "second\n");
}

TEST(OutputCapture, AKeptCopyOfTheWriteEndHoldsNothingUp) {
  output_capture capture;
  ASSERT_TRUE(capture.begin(output_kept_per_case));
  const int kept = ::dup(STDOUT_FILENO); // as a launcher might; end() must not wait for it
  std::printf("kept\n");
  EXPECT_EQ(capture.end().text, "kept\n");
  ::close(kept);
}

TEST(OutputCapture, AKernelsShareShrinksToTheKernelCap) {
  kernel_output output;
  EXPECT_EQ(output.next_share(), output_kept_per_case);
  output.left = 100;
  EXPECT_EQ(output.next_share(), 100u);
  output.left = 0;
  EXPECT_EQ(output.next_share(), 0u);
}

} // namespace
} // namespace cugrade::runner
