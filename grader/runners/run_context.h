#pragma once
/// \file
/// What every runner a grading starts is given beside its plan, passed down explicitly from the
/// grading to the code that starts it: a thread a grading starts (kernels checked at once, the
/// sanitizer's kernel-by-kernel runs, a gated timing runner) starts its runners with the same
/// context, because it is a value it was handed, not state of the thread that made it.

#include <string>
#include <utility>
#include <vector>

namespace cugrade::runners {

/// The devices a grading's runners run on.
struct run_context {
  /// CUDA_VISIBLE_DEVICES for every runner; empty keeps the inherited setting. `cugrade batch`
  /// pins each grading to one GPU this way (grader/core/grade.h, grade_hooks::before_runs).
  std::string cuda_visible_devices;
};

/// The host-to-device work queues a runner's CUDA context asks for (CUDA_DEVICE_MAX_CONNECTIONS;
/// the driver's default is 8). A runner launches on the default stream only (the contract), so
/// one queue loses nothing, and each queue is a channel the driver sets up when the context is
/// made and tears down when it ends, under a lock the whole machine shares: on the lent virtual
/// machines one queue halved a start's cost to the machine (0.170 to 0.083 s per start, 8
/// starting at once on an H100; 0.205 to 0.094 under compute-sanitizer). docs/batch.md,
/// "Throughput".
inline constexpr const char* runner_cuda_connections = "1";

/// The variables every runner the grader starts gets beside its sandbox's: the context's pinned
/// GPU (CUDA_VISIBLE_DEVICES, when one is pinned) and CUDA_DEVICE_MAX_CONNECTIONS.
[[nodiscard]] std::vector<std::pair<std::string, std::string>>
runner_environment(const run_context& context);

} // namespace cugrade::runners
