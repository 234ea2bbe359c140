#pragma once
/// \file
/// A case's buffers in a fault's words: "P (a 1156-byte device buffer: 17 x 17 floats)" and the
/// element an access reached, "P[17][0]". The grader names the buffer an out-of-bounds access hit
/// on both backends: from the emulator's words, or from the address compute-sanitizer reports,
/// placed among the buffers the runner says it allocated (protocol::buffer_place).

#include "harness/problems/problem.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::problems {

/// The buffers of a case in the launcher's order: the inputs, then the output.
[[nodiscard]] std::vector<buffer_spec> case_buffers(const problem& p, const shape& dims);

/// "a 1156-byte device buffer", "an 8-byte device buffer": the article as the size is read aloud
/// (eight, eleven, eighteen, eighty-, eight hundred, in any group of thousands).
[[nodiscard]] std::string sized_buffer_words(std::uint64_t bytes);

/// The one of `buffers` called `name` with `bytes` bytes, or nullptr.
[[nodiscard]] const buffer_spec* buffer_named(const std::vector<buffer_spec>& buffers,
                                              std::string_view name, std::size_t bytes);

/// The element an access `offset_bytes` from the start of `b` reaches (negative before it).
[[nodiscard]] long long element_index(const buffer_spec& b, long long offset_bytes);

/// "17 x 17 floats" or "1000 floats".
[[nodiscard]] std::string extent_words(const buffer_spec& b);

/// The element at `index` (may be negative or past the end): "P[17][0]", "input[-1]".
[[nodiscard]] std::string element_words(const buffer_spec& b, long long index);

/// Where an access `offset_bytes` from the start of `b` lies, when it lies outside it: "just past
/// the end of P (a 1156-byte device buffer: 17 x 17 floats), at P[17][0]", "4 bytes before the
/// start of input (...), at input[-1]"; "" when the offset is inside the buffer.
[[nodiscard]] std::string outside_words(const buffer_spec& b, long long offset_bytes);

} // namespace cugrade::problems
