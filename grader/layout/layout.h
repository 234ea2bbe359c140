#pragma once
/// \file
/// Where cugrade's parts are at run time: the data root (assignments/, reference/, the
/// emulator's headers, the report schema), the runner programs and the emulator's library.
/// Works from a build tree, an installed tree (PREFIX/bin, PREFIX/lib/cugrade,
/// PREFIX/share/cugrade) and the device bundle alike.

#include "harness/core/result.h"

#include <filesystem>

namespace cugrade::grader {

struct layout {
  std::filesystem::path root;            ///< holds assignments/ and reference/
  std::filesystem::path bin_dir;         ///< cugrade and the runners
  std::filesystem::path lib_dir;         ///< libcugrade_emu.so (PREFIX/lib/cugrade when installed)
  std::filesystem::path emu_include_dir; ///< the emulator's CUDA headers
  std::filesystem::path cache_dir;       ///< cloned repositories and build work

  [[nodiscard]] std::filesystem::path runner(const std::string& backend) const {
    return bin_dir / ("cugrade-runner-" + backend);
  }
  /// The program that fetches git sources in a process of its own (grader/fetch).
  [[nodiscard]] std::filesystem::path fetcher() const { return bin_dir / "cugrade-fetch"; }
};

/// Finds the layout from, in order: $CUGRADE_ROOT (a source tree or PREFIX/share/cugrade), the
/// installed tree the executable sits in, the source tree this binary was built from, or the
/// folder above the executable; the message says what was looked for when none fits.
[[nodiscard]] result<layout> discover_layout();

} // namespace cugrade::grader
