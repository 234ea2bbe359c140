// The scan ceiling of the roofline (see harness/roofline/ceiling.cuh): CUB's single-pass
// decoupled look-back inclusive scan.
#include "harness/roofline/ceiling.cuh"

#include <algorithm>
#include <cub/device/device_scan.cuh>

namespace cugrade::roofline {

namespace {

library_figure cub_inclusive_sum(library_timer& t, const problems::case_template& c,
                                 const std::vector<problems::buffer>& in) {
  const auto input = upload(in[0]);
  const long n = c.dims.n;
  device_memory output(static_cast<std::size_t>(n) * sizeof(float));
  std::size_t temp_bytes = 0;
  CUGRADE_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, input.as<float>(), output.as<float>(), n));
  device_memory temp(std::max<std::size_t>(temp_bytes, 1));
  int samples = 0;
  const double ms = t.median_ms(
      [&] {
        CUGRADE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.as<void>(), temp_bytes,
                                                         input.as<float>(), output.as<float>(), n));
      },
      samples);
  return {"", "CUB DeviceScan::InclusiveSum", ms, samples};
}

const ceiling_registrar registered{"scan", cub_inclusive_sum};

} // namespace

} // namespace cugrade::roofline
