#pragma once
/// \file
/// What compute-sanitizer found, read from its XML report (`--xml --save FILE`): one finding per
/// kind of error and source line, in the words of the report (`error_kind`). Records about CUDA
/// API calls are left out: they follow from a device fault, and the correctness run already
/// classifies faults. The XML is read with pugixml: its text carries student-controlled names
/// (kernels, files), so it goes through a maintained parser, never string matching.

#include "harness/core/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::perf {

struct sanitizer_finding {
  std::string tool;       ///< memcheck, racecheck or synccheck
  std::string error_kind; ///< out_of_bounds, misaligned_address, race, barrier_divergence, ...
  std::string what;       ///< the sanitizer's words, e.g. "Invalid __global__ write of size 4"
  std::string function;   ///< the kernel
  std::string file;       ///< the source file's name (no folders), empty without -lineinfo
  int line = 0;
  std::string other_location; ///< racecheck: the other access of the race, "file:line"
  std::string thread;         ///< e.g. "thread (232,0,0) in block (3,0,0)"
  int occurrences = 1;        ///< records (or hazards) merged into this finding
  std::uint64_t address = 0;  ///< memcheck: the bad access's address (0: not reported)

  /// "histogram.cu:42" or the function's name.
  [[nodiscard]] std::string location() const;
  /// One sentence for the student.
  [[nodiscard]] std::string describe() const;
};

/// The findings of one report written by `tool`, in the order first seen.
[[nodiscard]] result<std::vector<sanitizer_finding>> read_sanitizer_xml(std::string_view xml,
                                                                        std::string_view tool);

} // namespace cugrade::perf
