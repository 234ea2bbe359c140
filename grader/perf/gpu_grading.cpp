#include "grader/perf/gpu_grading.h"

#include "harness/core/elapsed.h"

namespace cugrade::perf {

void gpu_grading::say(const std::string& message) const {
  if (progress) {
    progress(message);
  }
}

std::string gpu_grading::gpu_key() const {
  return protocol::device_key(device);
}

void stage_parts::add(const std::string& name, std::chrono::steady_clock::time_point since) {
  const double seconds = seconds_since(since);
  for (auto& p : m_parts) {
    if (p.name == name) {
      p.seconds += seconds;
      return;
    }
  }
  m_parts.push_back({name, seconds});
}

std::vector<reports::stage_part> stage_parts::take() {
  return std::exchange(m_parts, {});
}

gpu_lock::gpu_lock(const gpu_grading& grading, stage_parts& parts)
    : m_grading(grading), m_parts(parts) {}

result<process::device_lock> gpu_lock::hold_shared() const {
  return process::device_lock::acquire(
      m_grading.gpu_key(), process::lock_mode::shared,
      [this](std::string_view m) { m_grading.say(std::string(m)); });
}

result<std::shared_ptr<process::device_lock>> gpu_lock::hold_exclusive() {
  if (auto held = m_exclusive.lock()) {
    return held;
  }
  const auto asked = std::chrono::steady_clock::now();
  auto lock =
      process::device_lock::acquire(m_grading.gpu_key(), process::lock_mode::exclusive,
                                    [this](std::string_view m) { m_grading.say(std::string(m)); });
  if (!lock) {
    return fail(lock.error());
  }
  m_parts.add("lock wait", asked);
  auto held = std::make_shared<process::device_lock>(std::move(*lock));
  m_exclusive = held;
  return held;
}

} // namespace cugrade::perf
