// The histogram ceiling of the roofline (see harness/roofline/ceiling.cuh).
#include "harness/roofline/ceiling.cuh"

#include <algorithm>
#include <cub/device/device_histogram.cuh>

namespace cugrade::roofline {

namespace {

library_figure cub_histogram(library_timer& t, const problems::case_template& c,
                             const std::vector<problems::buffer>& in) {
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

const ceiling_registrar registered{"histogram", cub_histogram};

} // namespace

} // namespace cugrade::roofline
