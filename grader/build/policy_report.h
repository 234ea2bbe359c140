#pragma once
/// \file
/// The symbol policy's violations placed in the student's source and described in their words
/// (forbidden_uses.h): the object's relocations and debug information place each call, and the
/// preprocessor, run only when some call is made inside a library header's code, finds the
/// student's `#include` of that header.

#include "grader/build/forbidden_uses.h"
#include "harness/core/result.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace cugrade::build {

/// Runs the preprocessor over the student's source and returns its output; nothing when it
/// could not (then the calls it would have placed are named without a place).
using preprocessor = std::function<std::optional<std::string>()>;

/// What build_outcome::forbidden_symbols says for `violations` of `object`. Fails only when the
/// binutils programs cannot run.
[[nodiscard]] result<std::vector<std::string>>
describe_in_source(const std::vector<policy_violation>& violations,
                   const std::filesystem::path& object, const student_source& source,
                   const preprocessor& preprocess);

} // namespace cugrade::build
