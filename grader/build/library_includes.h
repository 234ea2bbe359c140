#pragma once
/// \file
/// CUDA's libraries in a submission: the contract's launchers run the student's own kernels, so
/// an `#include` of thrust, CUB, libcu++, cuBLAS, cuFFT, cuRAND, cuSPARSE, cuSOLVER, cuDNN,
/// NCCL, NPP or NVRTC is `forbidden` on every backend, named at its line, before anything is
/// compiled. Both backends read the same text with the same function, so they cannot disagree:
/// with nvcc thrust compiles and its internals broke the symbol policy in their own words
/// (dynamic loading, the environment, threads), while the emulator has no thrust and said
/// `build_error`.
///
/// The scan reads the `#include` directives the shared C++ lexer (harness/core/cxx_lexer.h)
/// finds, outside comments, literals and `#if 0` blocks; an include under any other condition
/// counts, whatever the condition (the message names the line to delete).

#include <string>
#include <string_view>
#include <vector>

namespace cugrade::build {

/// The library a header belongs to ("thrust" for "thrust/reduce.h"), or empty for any other.
[[nodiscard]] std::string library_of_header(std::string_view header);

/// One entry per `#include` of a library header in `source`, in source order, in the words of
/// the policy's other violations: "`#include <thrust/reduce.h>` at scan.cu:3 (thrust is a
/// library: the contract asks for your own kernels)".
[[nodiscard]] std::vector<std::string> library_includes(std::string_view source,
                                                        std::string_view file_name);

} // namespace cugrade::build
