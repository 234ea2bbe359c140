// How a source reader's time grows with its input, measured within one run: the CPU time of the
// calling thread on an input 4 times larger over that on the smaller one, each the best of three
// runs, so that a busy machine's other processes count as little as they can. A reader linear in
// its input gives about 4; one that rescans the file per statement gives about 16. A ratio says "no
// quadratic pass" on any machine under any load, where a limit in seconds says only how busy the
// machine was. Keep inputs of a few megabytes: past malloc's largest mmap threshold (32 MiB) every
// run faults its memory in afresh while the smaller input reuses the heap, and the ratio measures
// page faults.
#pragma once

#include <algorithm>
#include <ctime>
#include <string>

namespace cugrade::grader::input_growth {

inline double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Best of three: the CPU seconds `read(input)` takes.
template <class Read> double best_seconds(const std::string& input, Read read) {
  double best = 1e30;
  for (int i = 0; i < 3; ++i) {
    const double start = thread_cpu_seconds();
    read(input);
    best = std::min(best, thread_cpu_seconds() - start);
  }
  return best;
}

// make(n) builds an input of n repeated units; the ratio of read's time on 4n units to n units.
template <class Make, class Read> double growth_from_n_to_4n(int n, Make make, Read read) {
  const double small = best_seconds(make(n), read);
  const double large = best_seconds(make(4 * n), read);
  return large / std::max(small, 1e-6);
}

// Linear within noise: well under the 16 of a quadratic pass.
inline constexpr double k_linear_growth_limit = 8.0;

} // namespace cugrade::grader::input_growth
