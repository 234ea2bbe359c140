#include "grader/perf/gpu_evaluation.h"

#include "harness/core/elapsed.h"

#include <chrono>

namespace cugrade::perf {

namespace fs = std::filesystem;

gpu_evaluator::gpu_evaluator(const spec::assignment_spec& spec, const grader::layout& layout,
                             fs::path nvcc, protocol::device_identity device,
                             runners::run_context context, fs::path work_dir,
                             std::function<void(std::string_view)> progress,
                             gpu_evaluation_options options)
    : m_grading{spec,
                layout,
                std::move(nvcc),
                std::move(device),
                std::move(context),
                std::move(work_dir),
                std::move(progress)},
      m_lock(m_grading, m_parts), m_sanitizer(m_grading, m_lock, options.sanitizer),
      m_timing(m_grading, m_lock, m_parts, options) {}

result<fs::path> gpu_evaluator::reference() {
  return m_timing.reference();
}

const roofline::device_roofline* gpu_evaluator::roof() {
  return m_timing.roof();
}

result<std::shared_ptr<process::device_lock>> gpu_evaluator::hold_exclusive() {
  return m_lock.hold_exclusive();
}

result<std::vector<reports::performance_entry>>
gpu_evaluator::compare(const std::string& launcher, const fs::path& library,
                       std::vector<launcher_run>& runs) {
  return m_timing.compare(launcher, library, runs);
}

result<std::vector<reports::stage_timing>>
gpu_evaluator::time_all(const std::vector<reports::kernel_report*>& kernels,
                        const fs::path& library, const std::function<void()>& runs_ended) {
  return m_timing.time_all(kernels, library, runs_ended);
}

bool gpu_evaluator::checks(const reports::kernel_report& k) const {
  return m_sanitizer.checks(k);
}

bool gpu_evaluator::times(const reports::kernel_report& k) const {
  return m_timing.times(k);
}

result<void> gpu_evaluator::sanitize(reports::kernel_report& k, const fs::path& student_library) {
  return m_sanitizer.sanitize(k, student_library);
}

result<std::vector<reports::stage_timing>>
gpu_evaluator::sanitize_all(const std::vector<reports::kernel_report*>& kernels,
                            const fs::path& student_library) {
  return m_sanitizer.sanitize_all(kernels, student_library);
}

result<void> gpu_evaluator::evaluate(reports::kernel_report& k, const fs::path& student_library) {
  if (checks(k)) {
    const auto started = std::chrono::steady_clock::now();
    auto r = sanitize(k, student_library);
    m_stages.push_back(
        {std::string(m_sanitizer.name()), k.name, seconds_since(started), take_parts()});
    if (!r) {
      return r;
    }
  }
  auto timed = time_all({&k}, student_library);
  if (!timed) {
    return fail(timed.error());
  }
  m_stages.insert(m_stages.end(), timed->begin(), timed->end());
  return {};
}

} // namespace cugrade::perf
