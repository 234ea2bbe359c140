#include "harness/roofline/library_timing.cuh"

#include "harness/backends/cuda_check.h"
#include "harness/core/error.h"

#include <algorithm>
#include <chrono>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cublas_v2.h>
#include <string>
#include <utility>
#include <vector>

namespace cugrade::roofline {

namespace {

constexpr int warmup_calls = 3;
constexpr int min_samples = 20;
constexpr double min_total_ms = 200;
constexpr int max_samples = 200;

// One device allocation, released on scope exit.
class device_memory {
public:
  explicit device_memory(std::size_t bytes) { CUGRADE_CUDA_CHECK(cudaMalloc(&m_ptr, bytes)); }
  ~device_memory() { CUGRADE_CUDA_CHECK_NOEXCEPT(cudaFree(m_ptr)); }
  device_memory(device_memory&& other) noexcept : m_ptr(std::exchange(other.m_ptr, nullptr)) {}
  device_memory(const device_memory&) = delete;
  device_memory& operator=(const device_memory&) = delete;
  device_memory& operator=(device_memory&&) = delete;
  template <class T> [[nodiscard]] T* as() const { return static_cast<T*>(m_ptr); }

private:
  void* m_ptr = nullptr;
};

device_memory upload(const problems::buffer& b) {
  device_memory d(b.bytes.size());
  CUGRADE_CUDA_CHECK(
      cudaMemcpy(d.as<void>(), b.bytes.data(), b.bytes.size(), cudaMemcpyHostToDevice));
  return d;
}

void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    CUGRADE_THROW(std::string("cuBLAS failed in ") + what + ": status " + std::to_string(s));
  }
}

std::vector<problems::buffer> inputs_of(problems::kind k, const problems::case_template& c) {
  const problems::test_case tc{"roofline", k, c.dims, c.distribution, 20261121};
  return problems::get(k).generate(tc);
}

// Row-major P (j x l) = M (j x k) N (k x l) is column-major P^T = N^T M^T: the usual trick of
// passing N first. Default math mode: true fp32, no TF32 tensor cores.
library_figure sgemm(library_timer& t, const problems::case_template& c) {
  const auto in = inputs_of(problems::kind::matmul, c);
  const auto m = upload(in[0]);
  const auto n = upload(in[1]);
  const int j = static_cast<int>(c.dims.j), k = static_cast<int>(c.dims.k),
            l = static_cast<int>(c.dims.l);
  device_memory p(static_cast<std::size_t>(j) * static_cast<std::size_t>(l) * sizeof(float));
  cublasHandle_t handle = nullptr;
  check_cublas(cublasCreate(&handle), "cublasCreate");
  check_cublas(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  const float alpha = 1, beta = 0;
  int samples = 0;
  const double ms = t.median_ms(
      [&] {
        check_cublas(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, l, j, k, &alpha, n.as<float>(),
                                 l, m.as<float>(), k, &beta, p.as<float>(), l),
                     "cublasSgemm");
      },
      samples);
  cublasDestroy(handle);
  return {"", "cuBLAS SGEMM", ms, samples};
}

library_figure cub_histogram(library_timer& t, const problems::case_template& c) {
  const auto in = inputs_of(problems::kind::histogram, c);
  const auto samples_d = upload(in[0]);
  device_memory bins(256 * sizeof(unsigned int));
  const int n = static_cast<int>(c.dims.n);
  std::size_t temp_bytes = 0;
  CUGRADE_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(
      nullptr, temp_bytes, samples_d.as<unsigned char>(), bins.as<unsigned int>(), 257, 0, 256, n));
  device_memory temp(std::max<std::size_t>(temp_bytes, 1));
  int samples = 0;
  const double ms = t.median_ms(
      [&] {
        CUGRADE_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(
            temp.as<void>(), temp_bytes, samples_d.as<unsigned char>(), bins.as<unsigned int>(),
            257, 0, 256, n));
      },
      samples);
  return {"", "CUB DeviceHistogram::HistogramEven", ms, samples};
}

library_figure cub_reduce(library_timer& t, const problems::case_template& c) {
  const auto in = inputs_of(problems::kind::reduction, c);
  const auto input = upload(in[0]);
  device_memory result(sizeof(float));
  const long n = c.dims.n;
  std::size_t temp_bytes = 0;
  CUGRADE_CUDA_CHECK(
      cub::DeviceReduce::Sum(nullptr, temp_bytes, input.as<float>(), result.as<float>(), n));
  device_memory temp(std::max<std::size_t>(temp_bytes, 1));
  int samples = 0;
  const double ms = t.median_ms(
      [&] {
        CUGRADE_CUDA_CHECK(cub::DeviceReduce::Sum(temp.as<void>(), temp_bytes, input.as<float>(),
                                                  result.as<float>(), n));
      },
      samples);
  return {"", "CUB DeviceReduce::Sum", ms, samples};
}

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
  switch (problem) {
  case problems::kind::matmul:
    return sgemm(*this, c);
  case problems::kind::histogram:
    return cub_histogram(*this, c);
  case problems::kind::reduction:
    return cub_reduce(*this, c);
  }
  CUGRADE_THROW("no library figure for this problem");
}

} // namespace cugrade::roofline
