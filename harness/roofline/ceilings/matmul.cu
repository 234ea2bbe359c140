// The matmul ceiling of the roofline (see harness/roofline/ceiling.cuh).
#include "harness/roofline/ceiling.cuh"

#include <cublas_v2.h>
#include <string>

namespace cugrade::roofline {

namespace {

void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    CUGRADE_THROW(std::string("cuBLAS failed in ") + what + ": status " + std::to_string(s));
  }
}

// Row-major P (j x l) = M (j x k) N (k x l) is column-major P^T = N^T M^T: the usual trick of
// passing N first. Default math mode: true fp32, no TF32 tensor cores.
library_figure sgemm(library_timer& t, const problems::case_template& c,
                     const std::vector<problems::buffer>& in) {
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

const ceiling_registrar registered{"matmul", sgemm};

} // namespace

} // namespace cugrade::roofline
