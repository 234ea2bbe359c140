#include "grader/core/gpu_loss.h"

#include "grader/core/backend_choice.h"
#include "grader/process/device_lock.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cugrade::grader {

namespace {

// A verdict the GPU could have caused: a kernel in `error` or `timeout`.
bool spoilable(const reports::kernel_report& k) {
  return k.status == reports::kernel_status::error || k.status == reports::kernel_status::timeout;
}

// "matmul_tiled (error), matmul_naive (timeout)": the kernels whose verdicts are not kept.
std::string spoiled_kernels(const std::vector<reports::kernel_report>& kernels) {
  std::vector<std::string> names;
  for (const auto& k : kernels) {
    if (spoilable(k)) {
      names.push_back(fmt::format("{} ({})", k.name, reports::to_string(k.status)));
    }
  }
  return fmt::format("{}", fmt::join(names, ", "));
}

} // namespace

std::optional<std::string>
gpu_lost_during_grading(const std::vector<reports::kernel_report>& kernels,
                        const std::function<std::string()>& gpu_fault) {
  if (std::none_of(kernels.begin(), kernels.end(), spoilable)) {
    return std::nullopt;
  }
  const std::string why = gpu_fault();
  if (why.empty()) {
    return std::nullopt;
  }
  return fmt::format(
      "the GPU stopped working during this grading ({}): the verdicts of {} may be the GPU's "
      "doing, so none of this grading is kept; grade again once the GPU works (`nvidia-smi -q` "
      "shows its \"GPU Recovery Action\", the kernel log its Xid errors)",
      why, spoiled_kernels(kernels));
}

result<protocol::device_identity>
probe_gpu_beside_gradings(const layout& l, const runners::run_context& context,
                          const protocol::device_identity& known) {
  auto held =
      process::device_lock::acquire(protocol::device_key(known), process::lock_mode::shared);
  if (!held) {
    return fail(held.error());
  }
  return probe_gpu(l, context);
}

} // namespace cugrade::grader
