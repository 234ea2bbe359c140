#include "grader/insight/kernel_comparison.h"

#include <algorithm>
#include <fmt/format.h>

namespace cugrade::insight {
namespace {

// The fastest kernel other than `kernel` measured on the same backend and shape.
const kernel_time* fastest_other(const kernel_time& kernel,
                                 const std::vector<kernel_time>& profiled) {
  const kernel_time* fastest = nullptr;
  for (const kernel_time& other : profiled) {
    if (other.kernel == kernel.kernel || other.backend != kernel.backend ||
        other.shape != kernel.shape || other.value <= 0) {
      continue;
    }
    if (fastest == nullptr || other.value < fastest->value) {
      fastest = &other;
    }
  }
  return fastest;
}

} // namespace

std::optional<std::string> comparison_lead(const kernel_time& kernel,
                                           const std::vector<kernel_time>& profiled) {
  const kernel_time* fastest = fastest_other(kernel, profiled);
  if (fastest == nullptr || kernel.value <= 0) {
    return std::nullopt;
  }
  const double ratio = kernel.value / fastest->value;
  if (ratio < least_compared_ratio) {
    return std::nullopt;
  }
  if (kernel.backend == reports::backend_kind::gpu) {
    return fmt::format("{} takes {:.1f}x the time of {} on the same input ({:.1f} against {:.1f} "
                       "microseconds): ",
                       kernel.kernel, ratio, fastest->kernel, kernel.value, fastest->value);
  }
  // Emulation measures no time: the model's memory time is what it compares.
  return fmt::format("{}'s modelled memory time is {:.1f}x {}'s on the same input: ", kernel.kernel,
                     ratio, fastest->kernel);
}

void lead_with_comparisons(const std::vector<kernel_time>& profiled,
                           const std::vector<reports::kernel_report*>& kernels) {
  for (reports::kernel_report* k : kernels) {
    if (k == nullptr || k->insights.empty()) {
      continue;
    }
    const auto own = std::find_if(profiled.begin(), profiled.end(),
                                  [&](const kernel_time& t) { return t.kernel == k->name; });
    if (own == profiled.end()) {
      continue;
    }
    if (const auto lead = comparison_lead(*own, profiled)) {
      k->insights.front().message = *lead + k->insights.front().message;
    }
  }
}

} // namespace cugrade::insight
