// The convolution ceiling of the roofline (see harness/roofline/ceiling.cuh). No library a plain
// CUDA 13 installation carries convolves a 2-D image with a small mask: cuBLAS and CUB have no
// such call, NPP's filters are a separate download on many machines, and cuDNN (which has one)
// is not part of the toolkit. So the figure is the memory roofline's floor for the case instead:
// a device-to-device copy of the image, which reads N and writes P once, the bytes every
// convolution must move (work().bytes, less the mask's few). Its name in reports says so.
#include "harness/roofline/ceiling.cuh"

namespace cugrade::roofline {

namespace {

library_figure image_copy(library_timer& t, const problems::case_template&,
                          const std::vector<problems::buffer>& in) {
  const auto image = upload(in[0]);
  const std::size_t bytes = in[0].bytes.size();
  device_memory output(bytes);
  int samples = 0;
  const double ms = t.median_ms(
      [&] {
        CUGRADE_CUDA_CHECK(cudaMemcpy(output.as<void>(), image.as<void>(), bytes,
                                      cudaMemcpyDeviceToDevice));
      },
      samples);
  return {"", "no 2-D convolution library: cudaMemcpy of the image (the memory floor)", ms,
          samples};
}

const ceiling_registrar registered{"convolution", image_copy};

} // namespace

} // namespace cugrade::roofline
