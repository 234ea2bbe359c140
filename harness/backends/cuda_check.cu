#include "harness/backends/cuda_check.h"
#include "harness/core/error.h"

#include <cstdio>
#include <string>

namespace cugrade::backends {

namespace {
std::string describe(cudaError_t e, const char* call) {
  return std::string(call) + " failed: " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
}
} // namespace

void throw_cuda_error(cudaError_t e, const char* call, std::source_location where) {
  throw_error(describe(e, call), where);
}

void report_cuda_error(cudaError_t e, const char* call, std::source_location where) noexcept {
  std::fprintf(stderr, "%s:%u: %s\n", where.file_name(), static_cast<unsigned>(where.line()),
               describe(e, call).c_str());
}

} // namespace cugrade::backends
