// The reduction ceiling of the roofline (see harness/roofline/ceiling.cuh).
#include "harness/roofline/ceiling.cuh"

#include <algorithm>
#include <cub/device/device_reduce.cuh>

namespace cugrade::roofline {

namespace {

library_figure cub_reduce(library_timer& t, const problems::case_template& c,
                          const std::vector<problems::buffer>& in) {
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

const ceiling_registrar registered{"reduction", cub_reduce};

} // namespace

} // namespace cugrade::roofline
