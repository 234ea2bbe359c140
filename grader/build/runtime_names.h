#pragma once
/// \file
/// The names the runner's process already defines: everything the C, C++ and CUDA (or emulator)
/// runtime libraries export. A submission that defines one of these would interpose on the
/// runtime (a student's malloc, say), so the symbol policy forbids it.

#include "grader/build/build.h"
#include "harness/core/result.h"

#include <filesystem>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace cugrade::build {

using name_set = std::unordered_set<std::string>;

/// The shared libraries whose exports are reserved for this toolchain and backend:
/// libc, libm, libstdc++ and libgcc_s as the host compiler finds them, plus libcudart (gpu)
/// or libcugrade_emu (emu). Fails naming the library that cannot be found.
[[nodiscard]] result<std::vector<std::filesystem::path>> runtime_libraries(const toolchain& tools,
                                                                           backend target);

/// The union of the libraries' exported names. Computed once per process and set of libraries
/// (it is the same for every submission), and kept in tools.cache_dir when one is given, for the
/// next process while the libraries are unchanged; safe to call from several threads.
[[nodiscard]] result<std::shared_ptr<const name_set>> runtime_names(const toolchain& tools,
                                                                    backend target);

} // namespace cugrade::build
