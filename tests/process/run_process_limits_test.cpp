#include "grader/process/process.h"
#include "grader/process/temp_dir.h"

#include "tests/process/child.h"

#include <gtest/gtest.h>

using namespace cugrade::process;
using cugrade::process::testing::child_options;
using cugrade::process::testing::run_ok;

TEST(RunProcessLimits, AddressSpaceLimitMakesABigAllocationFail) {
  auto options = child_options({"alloc", "1024"});
  EXPECT_EQ(run_ok(options).exit_code, 0) << "1 GiB of untouched memory should be available";
  options.address_space_bytes = std::size_t{256} << 20;
  EXPECT_EQ(run_ok(options).exit_code, 3) << "malloc of 1 GiB succeeded under a 256 MiB limit";
}

TEST(RunProcessLimits, FileSizeLimitStopsAWriter) {
  const temp_dir dir("cugrade-test");
  auto options = child_options({"file", (dir.path() / "big.bin").string(), "1048576"});
  options.file_size_bytes = 4096;
  const auto result = run_ok(options);
  EXPECT_EQ(result.term_signal, SIGXFSZ);
  EXPECT_LE(std::filesystem::file_size(dir.path() / "big.bin"), 4096u);
}

TEST(RunProcessLimits, CoreDumpsAreAlwaysOff) {
  EXPECT_EQ(run_ok(child_options({"rlimit", "core"})).stdout_text, "0\n");
}

TEST(RunProcessLimits, ReportsPeakResidentMemory) {
  const auto result = run_ok(child_options({"touch", "64"}));
  EXPECT_TRUE(result.succeeded());
  EXPECT_GE(result.max_rss_kb, 60 * 1024);
  EXPECT_LT(result.max_rss_kb, 1024 * 1024);
}

TEST(RunProcessLimits, ProcessLimitIsPassedToTheChild) {
  auto options = child_options({"rlimit", "nproc"});
  options.max_processes = 4321;
  EXPECT_EQ(run_ok(options).stdout_text, "4321\n");
}

TEST(RunProcessLimits, CpuLimitIsPassedToTheChild) {
  auto options = child_options({"rlimit", "cpu"});
  options.cpu_time_limit_seconds = 2.5;
  EXPECT_EQ(run_ok(options).stdout_text, "3\n");
}
