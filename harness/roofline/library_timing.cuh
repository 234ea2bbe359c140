#pragma once
/// \file
/// Timing vendor libraries the way the runner times launchers: warm-up, the L2 flushed before
/// every sample, CUDA events, the median of enough samples.

#include "harness/problems/problem.h"
#include "harness/roofline/roofline.h"

#include <cstddef>
#include <functional>

namespace cugrade::roofline {

class library_timer {
public:
  explicit library_timer(std::size_t l2_bytes);
  ~library_timer();
  library_timer(const library_timer&) = delete;
  library_timer& operator=(const library_timer&) = delete;

  /// A large device-to-device copy, counting the bytes read and the bytes written.
  [[nodiscard]] double copy_bandwidth_gbps();
  /// The library's time on one case, on inputs drawn from the case's distribution.
  [[nodiscard]] library_figure library_time(problems::kind problem,
                                            const problems::case_template& c);

  /// The median time of `op` over cold samples; `samples` receives how many were taken.
  double median_ms(const std::function<void()>& op, int& samples);

private:
  void flush();
  void* m_flush = nullptr;
  std::size_t m_flush_bytes = 0;
  int m_flush_value = 0;
};

} // namespace cugrade::roofline
