#pragma once
/// \file
/// Which of the student's `#include` lines brought in a header, read from the compiler's
/// preprocessed output: its linemarkers (`# 12 "file" 1` entering a file, `# 13 "file" 2` back in
/// the file that included it) give the include tree. A forbidden call made inside a library
/// header's code is then reported at the student's `#include` of it.

#include <map>
#include <string>
#include <string_view>

namespace cugrade::build {

/// Header path (as the compiler names it) -> the line of the student's `#include` that first
/// brought it in, directly or through other headers. `student_file` is the file name of the
/// student's source; headers the compiler includes before it (-include) are not listed.
[[nodiscard]] std::map<std::string, int> includes_by_header(std::string_view preprocessed,
                                                            std::string_view student_file);

} // namespace cugrade::build
