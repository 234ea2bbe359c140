#pragma once
/// \file
/// An array indexed by a byte read as a signed `char`, found in the submission's source text:
///
///     __global__ void histo_private(char* buffer, int len, unsigned int* histo) {
///       ... atomicAdd(&private_histogram[buffer[i]], 1); ...
///
/// The textbook's text histogram takes `char* data`; a student who keeps that signature for the
/// contract's 256 bins casts the `const unsigned char*` input to `char*`, and bytes 128..255 then
/// read as -128..-1: they index before the bins' start. On a GPU the counts of those bytes go
/// missing or land in other memory (memcheck may or may not see it, depending on what lies
/// there); in emulation the write before a device buffer or a `__shared__` array is an
/// out-of-bounds fault. Both backends read the same source, so diagnosis names the one cause.
///
/// The signed bytes are the elements of a pointer or array declared `char` or `signed char`
/// (never `unsigned char`, `uint8_t`...): a parameter, or a local pointer. A finding is a
/// subscript whose whole index is one such element (`histo[buffer[i]]`, also through a cast
/// that is not unsigned: `histo[(int)buffer[i]]`), or a variable given exactly such an element
/// (`int c = buffer[i]; ... histo[c]`, or `char c = ...`). An index that computes with the byte
/// (`histo[(data[i] - 'a') / 4]`, the textbook's alphabet) is not a finding. A reader of text,
/// not a compiler (source_tokens.h).

#include "grader/core/source_tokens.h"

#include <string>
#include <string_view>
#include <vector>

namespace cugrade::grader {

struct signed_byte_index {
  std::string function; ///< where the subscript is
  std::string array;    ///< the array it indexes (`private_histogram`)
  std::string bytes;    ///< the `char` pointer the byte comes from (`buffer`)
  int line = 0;         ///< the subscript's line
  std::string access;   ///< the subscript as written, spaces squeezed
};

/// Every finding in `source`, in source order, at most one per function and array.
[[nodiscard]] std::vector<signed_byte_index> signed_byte_indexes(std::string_view source);

/// Those in the functions that `launcher`'s kernels reach (`kernel<<<...>>>` inside its body),
/// directly or not; every function's when the launcher's body or launches cannot be found.
[[nodiscard]] std::vector<signed_byte_index>
signed_byte_indexes_of_launcher(std::string_view source, std::string_view launcher);

/// The same, from the launcher's code already read as tokens (source_facts.h reads it once for
/// every reader of statements).
[[nodiscard]] std::vector<signed_byte_index>
signed_byte_indexes_of(const source_tokens::launcher_tokens& read);

} // namespace cugrade::grader
