#pragma once
/// \file
/// A launcher's own CUDA error check, as its debug output printed it. Course labs check every
/// runtime call with a macro that prints the call it wrapped and the runtime's words: ECE408's
/// wbCheck ("Failed to run stmt cudaMemcpy(result, &sum, sizeof(float), cudaMemcpyDeviceToHost):
/// invalid argument"), the CUDA samples' checkCudaErrors ("CUDA error at reduction.cu:57
/// code=1(cudaErrorInvalidValue) "cudaMemcpy(...)""), a CUDA_CHECK that prints "cudaMalloc(...)
/// failed: out of memory". On a GPU, whose runtime keeps only the last error, that line is the
/// one record of which call failed.

#include <optional>
#include <string>
#include <string_view>

namespace cugrade::grader {

struct printed_cuda_check {
  std::string call;     ///< the runtime function the line names: "cudaMemcpy"
  std::string line;     ///< the printed line, trimmed, at most 200 characters
  std::string location; ///< "reduction.cu:57" where the line names a source line, else ""
};

/// The first line of `output` that names a runtime call (`cudaXxx(`, not the error queries
/// cudaGetLastError, cudaPeekAtLastError, cudaGetErrorString and cudaGetErrorName) together with
/// the error: its name (`error_name`, "cudaErrorInvalidValue") or its words (`error_words`,
/// "invalid argument"). Empty names or words match nothing.
[[nodiscard]] std::optional<printed_cuda_check>
find_printed_cuda_check(std::string_view output, std::string_view error_name,
                        std::string_view error_words);

} // namespace cugrade::grader
