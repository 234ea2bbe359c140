#include "harness/roofline/library_timing.cuh"

#include "harness/roofline/ceiling.cuh"

#include "harness/backends/cuda_check.h"
#include "harness/core/error.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace cugrade::roofline {

namespace {

constexpr int warmup_calls = 3;
constexpr int min_samples = 20;
constexpr double min_total_ms = 200;
constexpr int max_samples = 200;

} // namespace

library_timer::library_timer(std::size_t l2_bytes)
    : m_flush_bytes(2 * std::max<std::size_t>(l2_bytes, 1)) {
  CUGRADE_CUDA_CHECK(cudaMalloc(&m_flush, m_flush_bytes));
}

library_timer::~library_timer() {
  CUGRADE_CUDA_CHECK_NOEXCEPT(cudaFree(m_flush));
}

// Writing twice the L2 size evicts what the previous sample left there.
void library_timer::flush() {
  CUGRADE_CUDA_CHECK(cudaMemset(m_flush, ++m_flush_value & 0xff, m_flush_bytes));
}

double library_timer::median_ms(const std::function<void()>& op, int& samples) {
  for (int i = 0; i < warmup_calls; ++i) {
    op();
  }
  CUGRADE_CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start = nullptr, stop = nullptr;
  CUGRADE_CUDA_CHECK(cudaEventCreate(&start));
  CUGRADE_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> times;
  double total = 0;
  while (static_cast<int>(times.size()) < max_samples &&
         (static_cast<int>(times.size()) < min_samples || total < min_total_ms)) {
    flush();
    CUGRADE_CUDA_CHECK(cudaEventRecord(start));
    op();
    CUGRADE_CUDA_CHECK(cudaEventRecord(stop));
    CUGRADE_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUGRADE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
    total += ms;
  }
  CUGRADE_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(start));
  CUGRADE_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(stop));
  samples = static_cast<int>(times.size());
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

double library_timer::copy_bandwidth_gbps() {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUGRADE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t bytes = std::min<std::size_t>(std::size_t{1} << 30, free_bytes / 4);
  device_memory src(bytes);
  device_memory dst(bytes);
  CUGRADE_CUDA_CHECK(cudaMemset(src.as<void>(), 1, bytes));
  int samples = 0;
  const double ms = median_ms(
      [&] {
        CUGRADE_CUDA_CHECK(
            cudaMemcpy(dst.as<void>(), src.as<void>(), bytes, cudaMemcpyDeviceToDevice));
      },
      samples);
  return 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

library_figure library_timer::library_time(problems::kind problem,
                                           const problems::case_template& c) {
  const std::string_view name = problems::to_string(problem);
  const ceiling_fn ceiling = find_ceiling(name);
  if (ceiling == nullptr) {
    CUGRADE_THROW("no library ceiling for problem " + std::string(name) +
                  " (harness/roofline/ceilings/" + std::string(name) + ".cu)");
  }
  const problems::test_case tc{"roofline", problem, c.dims, c.distribution, 20261121};
  return ceiling(*this, c, problems::get(problem).generate(tc));
}

} // namespace cugrade::roofline
