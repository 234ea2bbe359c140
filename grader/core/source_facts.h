#pragma once
/// \file
/// What diagnosis reads in a submission's source text for one launcher: mistakes that no backend
/// sees at run time, or sees differently, so that both name the same cause at the same line
/// (early_exits.h, warp_steps.h, signed_bytes.h), and where it calls the CUDA runtime, for a
/// launcher's printed error check that names only a line (printed_cuda_checks.h).

#include "grader/core/early_exits.h"
#include "grader/core/printed_cuda_checks.h"
#include "grader/core/signed_bytes.h"
#include "grader/core/warp_steps.h"

#include <string_view>
#include <vector>

namespace cugrade::grader {

struct source_facts {
  std::vector<early_exit> early_exits{}; ///< returns before a barrier
  std::vector<warp_step_run> warp_steps{};  ///< a last warp's steps with no volatile or __syncwarp
  std::vector<signed_byte_index> signed_bytes{}; ///< arrays indexed by a byte read as signed char
  std::vector<runtime_call_site> runtime_calls{}; ///< the whole file's lines that call the runtime
};

/// The facts of the code `launcher` runs (its kernels and what they call, where that can be
/// found; the whole file's otherwise).
[[nodiscard]] source_facts source_facts_of_launcher(std::string_view source,
                                                    std::string_view launcher);

} // namespace cugrade::grader
