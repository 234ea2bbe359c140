#pragma once
/// \file
/// The contract's names for the buffers the grader allocated (M, N, P; input, bins; result;
/// output) in the words of a fault. The emulator reports an access past a device buffer by the
/// buffer's size ("4 bytes past the end of a 4096-byte device buffer"), since it does not know
/// what the grader called it; the runner says where it put each of the case's buffers.

#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"

#include <string>

namespace cugrade::grader {

/// `message` with each "... past the end of a S-byte device buffer at 0xA" / "... before the
/// start of a S-byte device buffer at 0xA" naming the case's buffer and the element reached:
/// "a write just past the end of P (a 1156-byte device buffer: 17 x 17 floats), at P[17][0]".
/// The buffer is the one the runner placed at that address (`places`, from the case's
/// case_begin); without a place, every buffer of that size is named ("M, N or P"); the words
/// stay as they are when no buffer has the size. The GPU runner's words for host code that read
/// or wrote device memory ("of address 0xA, which is not host memory: ...") name the buffer and
/// element where A lies inside one the runner placed, and stay as they are elsewhere.
[[nodiscard]] std::string with_buffer_names(const std::string& message,
                                            const problems::problem& problem,
                                            const problems::shape& dims,
                                            const std::vector<protocol::buffer_place>& places = {});

/// How the output is named in a fault's words: "P (the output, 17 x 17 floats)".
[[nodiscard]] std::string output_words(const problems::problem& problem,
                                       const problems::shape& dims);

} // namespace cugrade::grader
