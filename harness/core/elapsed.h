#pragma once
/// \file
/// Wall time since a steady-clock instant, in seconds: how stage timings, the runner's sampling
/// clock and a batch's rates measure time.

#include <chrono>

namespace cugrade {

[[nodiscard]] inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace cugrade
