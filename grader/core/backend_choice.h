#pragma once
/// \file
/// Choosing where kernels run: the GPU when one is usable (asked of the GPU runner, in a child
/// process: the grader never initialises CUDA itself), else the CPU emulator.

#include "grader/layout/layout.h"
#include "grader/runners/run_context.h"
#include "harness/core/result.h"
#include "harness/protocol/protocol.h"
#include "reports/report.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace cugrade::grader {

struct backend_choice {
  reports::backend_kind kind = reports::backend_kind::emu;
  protocol::device_identity identity;
  std::filesystem::path nvcc; ///< for the GPU backend
  std::string note;           ///< why this backend, e.g. "no usable GPU: ..."
};

/// What the GPU runner says about the device (the one `context` pins it to), or why there is none.
[[nodiscard]] result<protocol::device_identity> probe_gpu(const layout& l,
                                                          const runners::run_context& context);

/// The nvcc to build with: $CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc, or nvcc on PATH.
[[nodiscard]] std::optional<std::filesystem::path> find_nvcc();

/// `requested` is "auto", "gpu" or "emu"; a forced backend that cannot work is a failure
/// (infrastructure: the report will say not gradable).
[[nodiscard]] result<backend_choice> choose_backend(const layout& l, std::string_view requested);

} // namespace cugrade::grader
