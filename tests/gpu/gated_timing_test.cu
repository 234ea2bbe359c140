// Gated launches on the GPU (docs/timing.md, "gated launches"): the events time the device work
// without the host's time inside the launcher, and a launcher that waits on the device inside
// the call is timed ungated instead of hanging or being charged the gate's timeout.

#include "harness/backends/backend.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"
#include "harness/runner/timing_runner.h"
#include "tests/gpu/no_gpu_reason.h"

#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

__global__ void sum_kernel(const float* input, long n, float* result) {
  float sum = 0.0f;
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long>(blockDim.x) * gridDim.x) {
    sum += input[i];
  }
  atomicAdd(result, sum);
}

void launch_sum(const float* input, long n, float* result) {
  cudaMemsetAsync(result, 0, sizeof(float));
  sum_kernel<<<64, 256>>>(input, n, result);
}

// Spends 3 ms on the host before it enqueues anything.
void slow_host_launcher(const float* input, long n, float* result) {
  std::this_thread::sleep_for(std::chrono::milliseconds(3));
  launch_sum(input, n, result);
}

// Waits for its kernel inside the call, as a launcher that copies a partial result back would.
void synchronising_launcher(const float* input, long n, float* result) {
  launch_sum(input, n, result);
  cudaDeviceSynchronize();
}

using cugrade::testing::no_gpu_reason;

cugrade::protocol::timing_record time_launcher(void (*launcher)(const float*, long, float*),
                                               bool gate) {
  using namespace cugrade;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("cugrade-gated-" + std::to_string(::getpid()) +
                                                    "-" + std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir);
  protocol::plan p;
  p.problem = problems::kind_named("reduction");
  p.launcher = "test";
  p.output_dir = dir;
  p.cases.push_back({"bench", {.n = 1 << 20}, "real_offset", 7});
  p.timing.enabled = true;
  p.timing.warmup_seconds = 0.05;
  p.timing.min_samples = 20;
  p.timing.max_samples = 20;
  p.timing.min_seconds = 0;
  p.timing.gate_launches = gate;
  {
    protocol::event_writer events(dir / protocol::events_file_name);
    const auto backend = backends::make_backend();
    runner::read_back_buffer read_back;
    EXPECT_TRUE(runner::time_case(problems::get(p.problem), p, 0, reinterpret_cast<void*>(launcher),
                                  *backend, events, read_back));
  }
  auto log = protocol::read_events(dir / protocol::events_file_name);
  fs::remove_all(dir);
  EXPECT_EQ(log.timings.size(), 1u);
  return log.timings.empty() ? protocol::timing_record{} : log.timings[0];
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

TEST(GatedTiming, LeavesTheHostTimeInsideTheLauncherOutOfTheEvents) {
  if (const auto why = no_gpu_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const auto gated = time_launcher(slow_host_launcher, true);
  const auto ungated = time_launcher(slow_host_launcher, false);
  EXPECT_TRUE(gated.gated);
  EXPECT_FALSE(ungated.gated);
  ASSERT_FALSE(gated.event_ms.empty());
  ASSERT_FALSE(ungated.event_ms.empty());
  // 4 MiB summed takes microseconds; the 3 ms sleep shows only when the stream runs free.
  EXPECT_LT(median_of(gated.event_ms), 1.0);
  EXPECT_GT(median_of(ungated.event_ms), 2.9);
  // The host clock still sees the whole call (the cross-check against hidden work).
  EXPECT_GT(median_of(gated.host_ms), 2.9);
  std::cout << "[ GATED    ] median event ms gated " << median_of(gated.event_ms) << ", ungated "
            << median_of(ungated.event_ms) << "\n";
}

TEST(GatedTiming, ALauncherThatWaitsOnTheDeviceIsTimedUngated) {
  if (const auto why = no_gpu_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const auto r = time_launcher(synchronising_launcher, true);
  EXPECT_FALSE(r.gated);
  EXPECT_NE(r.note.find("waits on the device"), std::string::npos) << r.note;
  ASSERT_EQ(r.event_ms.size(), 20u);
  // No kept sample carries the gate's 100 ms timeout.
  EXPECT_LT(*std::max_element(r.event_ms.begin(), r.event_ms.end()), 50.0);
}

} // namespace
