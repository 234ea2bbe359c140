#pragma once
/// \file
/// Threads that return before a barrier, found in the submission's source text: a `return` in a
/// `__global__` function, under a condition that depends on the thread (threadIdx, or a variable
/// computed from it), with a `__syncthreads()` after it in the same function. The threads that
/// return never load or write their part of the block's shared memory, and the others meet at
/// the barrier without them. On compute capability 7.0 and later a barrier does not wait for
/// exited threads (the PTX ISA's barrier; the emulator's does the same), so neither backend nor
/// compute-sanitizer's synccheck reports anything but wrong values. Diagnosis names the cause
/// on both backends from these facts (docs/hints.md, `barrier_divergence`).
///
/// A reader of text, not a compiler: comments, strings and preprocessor lines are skipped, and
/// a variable is thread-dependent when a declaration or assignment in the same function computes
/// it from one that is. A return that every thread of a block takes alike (`if (blockIdx.x >=
/// blocks) return;`) is not one.

#include "grader/core/source_code.h"

#include <string>
#include <string_view>
#include <vector>

namespace cugrade::grader {

/// One return before a barrier.
struct early_exit {
  std::string kernel;    ///< the __global__ function
  int return_line = 0;   ///< the line of the `return`
  int barrier_line = 0;  ///< the first __syncthreads() after it
  std::string condition; ///< the condition the return is under, as written, squeezed
};

/// Every return before a barrier in `source`, in source order.
[[nodiscard]] std::vector<early_exit> early_exits(std::string_view source);

/// Those of the kernels `launcher` launches (`kernel<<<...>>>` inside its body); every kernel's
/// when the launcher's body or its launches cannot be found.
[[nodiscard]] std::vector<early_exit> early_exits_of_launcher(std::string_view source,
                                                              std::string_view launcher);

/// The same, from a source already read for the launcher (source_facts.h reads it once for every
/// fact).
[[nodiscard]] std::vector<early_exit> early_exits_of(const source_code::launcher_code& launcher);

} // namespace cugrade::grader
