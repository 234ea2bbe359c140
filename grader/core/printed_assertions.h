#pragma once
/// \file
/// A failed assert() in a kernel, as the CUDA runtime prints it on a GPU ("<path>/reduction.cu:22:
/// void sum(const float *, float *, long): block: [0,0,0], thread: [224,0,0] Assertion `i < n`
/// failed."). The GPU only says cudaErrorAssert; the runner's captured output says which
/// assertion, where and in which thread, in the words the emulator uses for its own.

#include <optional>
#include <string>
#include <string_view>

namespace cugrade::grader {

struct printed_assertion {
  std::string location;   ///< "reduction.cu:22": the file's name without the grader's folders
  std::string expression; ///< "i < n"
  std::string thread;     ///< "(224,0,0)"
  std::string block;      ///< "(0,0,0)"
};

/// The first failed assertion printed in `output`, if any.
[[nodiscard]] std::optional<printed_assertion> first_printed_assertion(std::string_view output);

/// `message` with the first assertion printed in `output` added ("...: assertion `i < n` failed
/// at reduction.cu:22 by thread (224,0,0) of block (0,0,0)"); `message` as it is when none is.
[[nodiscard]] std::string with_printed_assertion(std::string message, std::string_view output);

} // namespace cugrade::grader
