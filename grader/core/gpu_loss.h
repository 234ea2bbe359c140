#pragma once
/// \file
/// A GPU that stops working during a grading (its firmware stops answering: Xid errors, "GPU
/// Reset Required") ends the kernels it was running in `error` or `timeout`, and every later run
/// fails. What only the machine caused is never the student's verdict (the contract), so after a
/// GPU grading in which a kernel ended so, the GPU is asked again whether it works, and a GPU that
/// does not makes the report not gradable. `cugrade batch` then takes that GPU out of service
/// (grader/batch/pipeline.h).

#include "grader/layout/layout.h"
#include "grader/runners/run_context.h"
#include "harness/core/result.h"
#include "harness/protocol/protocol.h"
#include "reports/report.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::grader {

/// The report's infrastructure error when the GPU stopped working during a grading whose
/// `kernels` it may have spoiled; nothing when the verdicts stand. `gpu_fault` is asked only
/// then: why the GPU cannot be used now, empty when it can.
[[nodiscard]] std::optional<std::string>
gpu_lost_during_grading(const std::vector<reports::kernel_report>& kernels,
                        const std::function<std::string()>& gpu_fault);

/// probe_gpu under the shared lock of the GPU `known` (as an earlier probe saw it): a probe waits
/// while another grading times its kernels there, and never runs inside their timed window.
[[nodiscard]] result<protocol::device_identity>
probe_gpu_beside_gradings(const layout& l, const runners::run_context& context,
                          const protocol::device_identity& known);

} // namespace cugrade::grader
