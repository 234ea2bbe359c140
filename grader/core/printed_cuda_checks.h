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
#include <vector>

namespace cugrade::grader {

struct printed_cuda_check {
  std::string call;     ///< the runtime function the line names: "cudaMemcpy"; "" if only a line
  std::string line;     ///< the printed line, trimmed, at most 200 characters
  std::string location; ///< "reduction.cu:57" where the line names a source line, else ""
};

/// The first line of `output` that names the error (its name, `error_name`:
/// "cudaErrorInvalidValue", or its words, `error_words`: "invalid argument") together with a
/// runtime call (`cudaXxx(`, not the error queries cudaGetLastError, cudaPeekAtLastError,
/// cudaGetErrorString and cudaGetErrorName) or a source line: "reduction.cu:57", or the
/// "reduction.cu 57" of the widespread gpuErrchk ("GPUassert: invalid argument
/// /path/reduction.cu 57"), whose call the source line then says. Empty names or words match
/// nothing.
[[nodiscard]] std::optional<printed_cuda_check>
find_printed_cuda_check(std::string_view output, std::string_view error_name,
                        std::string_view error_words);

/// A line of the source that calls the runtime: where a printed check's file and line point.
struct runtime_call_site {
  int line = 0;     ///< 1-based
  std::string call; ///< "cudaMemcpy"
  std::string text; ///< the line, trimmed, printable, at most 200 characters
};

/// Every line of `source` that calls the runtime (its first call that is not an error query).
[[nodiscard]] std::vector<runtime_call_site> runtime_call_sites(std::string_view source);

} // namespace cugrade::grader
