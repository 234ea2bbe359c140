// Benchmark inputs made on the GPU (problems::float_recipe, backend::generate) against the bytes
// the host makes for the grader's checks: any difference would fail every timed call's check.

#include "harness/backends/backend.h"
#include "harness/problems/problem.h"
#include "harness/protocol/timing.h"
#include "harness/runner/device_buffer.h"
#include "tests/gpu/no_gpu_reason.h"

#include <chrono>
#include <cstring>
#include <gtest/gtest.h>
#include <iostream>
#include <vector>

namespace {

using namespace cugrade;
using cugrade::testing::no_gpu_reason;

// Input set `set` of a matmul benchmark case, made on the device and read back, input by input.
std::vector<problems::buffer> made_on_device(backends::backend& b, const problems::test_case& tc,
                                             int set, int sets, double& seconds) {
  const auto recipes = protocol::input_set_recipes(problems::get(tc.problem), tc, set, sets);
  EXPECT_TRUE(recipes.has_value());
  std::vector<problems::buffer> out;
  seconds = 0;
  for (const auto& r : recipes.value_or(std::vector<problems::float_recipe>{})) {
    runner::device_buffer d(b, r.count * sizeof(float));
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(b.generate(r, d.get()));
    EXPECT_EQ(b.after_call().error_kind, ""); // synchronises: the kernel's time is counted
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    problems::buffer host{problems::element_type::f32, std::vector<std::byte>(r.count * 4)};
    EXPECT_TRUE(b.download(host.bytes.data(), d.get(), host.bytes.size()));
    out.push_back(std::move(host));
  }
  return out;
}

TEST(DeviceInputs, MatmulInputSetsMadeOnTheGpuAreTheHostsBytes) {
  if (const auto why = no_gpu_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const auto backend = backends::make_backend();
  constexpr int sets = 4;
  // Shapes of one chunk, of several with a partial last one, and a benchmark's size; both
  // distributions; every set and the fresh set (its first input negated).
  const problems::shape shapes[] = {{.j = 17, .k = 33, .l = 9},
                                    {.j = 300, .k = 523, .l = 257},
                                    {.j = 4096, .k = 1024, .l = 2048}};
  for (const auto& dims : shapes) {
    for (const std::string distribution : {"real", "integer"}) {
      const problems::test_case tc{"bench", problems::kind_named("matmul"), dims, distribution,
                                   1234567};
      for (int set = 0; set <= sets; ++set) {
        double seconds = 0;
        const auto device = made_on_device(*backend, tc, set, sets, seconds);
        const auto host = protocol::input_set_inputs(problems::get(tc.problem), tc, set, sets);
        ASSERT_EQ(device.size(), host.size());
        for (std::size_t i = 0; i < host.size(); ++i) {
          ASSERT_EQ(device[i].bytes.size(), host[i].bytes.size());
          EXPECT_EQ(std::memcmp(device[i].bytes.data(), host[i].bytes.data(), host[i].bytes.size()),
                    0)
              << distribution << " " << dims.j << "x" << dims.k << "x" << dims.l << " set " << set
              << " input " << i;
        }
        if (dims.j == 4096 && set == 0) {
          std::cout << "[ DEVICE   ] " << distribution
                    << " 4096x1024x2048 input set made on the GPU in " << seconds * 1e3 << " ms\n";
        }
      }
    }
  }
}

} // namespace
