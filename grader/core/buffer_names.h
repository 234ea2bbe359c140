#pragma once
/// \file
/// The contract's names for the buffers the grader allocated (M, N, P; input, bins; result;
/// output) in the words of a fault. The emulator reports an access past a device buffer by the
/// buffer's size ("4 bytes past the end of a 4096-byte device buffer"), since it does not know
/// what the grader called it; the grader knows each buffer of the case and its size.

#include "harness/problems/problem.h"

#include <string>

namespace cugrade::grader {

/// `message` with each "... past the end of a S-byte device buffer" / "... before the start of
/// a S-byte device buffer" naming the case's buffer of that size and the element reached:
/// "a write just past the end of P (a 1156-byte device buffer: 17 x 17 floats), at P[17][0]".
/// When several buffers have the size, all are named ("M or N"); unchanged when none has it.
[[nodiscard]] std::string with_buffer_names(const std::string& message,
                                            const problems::problem& problem,
                                            const problems::shape& dims);

/// How the output is named in a fault's words: "P (the output, 17 x 17 floats)".
[[nodiscard]] std::string output_words(const problems::problem& problem,
                                       const problems::shape& dims);

} // namespace cugrade::grader
