#include "harness/emu/src/state.h"

#include <algorithm>
#include <utility>

namespace cugrade::emu::detail {

emulator_state& emulator_state::instance() {
  // Leaked on purpose: kernels on worker threads may still report while the process exits.
  static auto* state = new emulator_state();
  return *state;
}

cudaError_t emulator_state::result(cudaError_t e) {
  if (e != cudaSuccess) {
    const std::lock_guard lock(m_mutex);
    m_last.store(e);
    m_failed_call.reset();
  }
  return e;
}

cudaError_t emulator_state::failed_call(cudaError_t e, const char* call, std::string why) {
  const std::lock_guard lock(m_mutex);
  m_last.store(e);
  m_failed_call = failed_api_call{call, std::move(why)};
  return e;
}

std::optional<failed_api_call> emulator_state::last_failed_call() const {
  const std::lock_guard lock(m_mutex);
  if (m_last.load() == cudaSuccess || sticky() != cudaSuccess) {
    return std::nullopt;
  }
  return m_failed_call;
}

void emulator_state::set_sticky(cudaError_t e) {
  int expected = cudaSuccess;
  m_sticky.compare_exchange_strong(expected, e);
  m_last.store(sticky());
}

cudaError_t emulator_state::last_error(bool reset) {
  const cudaError_t s = sticky();
  if (s != cudaSuccess) {
    return s;
  }
  if (!reset) {
    return static_cast<cudaError_t>(m_last.load());
  }
  const std::lock_guard lock(m_mutex);
  m_failed_call.reset();
  return static_cast<cudaError_t>(m_last.exchange(cudaSuccess));
}

void emulator_state::add_diagnostic(diagnostic d) {
  const std::lock_guard lock(m_mutex);
  m_diagnostics.push_back(std::move(d));
}

std::vector<diagnostic> emulator_state::take_diagnostics() {
  const std::lock_guard lock(m_mutex);
  return std::exchange(m_diagnostics, {});
}

void emulator_state::set_schedule(schedule_choice c) {
  const std::lock_guard lock(m_mutex);
  m_schedule = c;
}

schedule_choice emulator_state::schedule() const {
  const std::lock_guard lock(m_mutex);
  return m_schedule;
}

kernel_info emulator_state::kernel(const void* key) const {
  const std::lock_guard lock(m_mutex);
  const auto it = m_kernels.find(key);
  return it == m_kernels.end() ? kernel_info{} : it->second;
}

void emulator_state::set_max_dynamic_shared(const void* key, int bytes) {
  const std::lock_guard lock(m_mutex);
  m_kernels[key].max_dynamic_shared = bytes;
}

void emulator_state::note_static_shared(const void* key, std::size_t bytes) {
  const std::lock_guard lock(m_mutex);
  auto& info = m_kernels[key];
  info.static_shared = std::max(info.static_shared, bytes);
}

void emulator_state::reset() {
  const std::lock_guard lock(m_mutex);
  m_sticky.store(cudaSuccess);
  m_last.store(cudaSuccess);
  m_failed_call.reset();
  m_diagnostics.clear();
  m_kernels.clear();
}

cudaError_t sticky_result() {
  auto& state = emulator_state::instance();
  return state.result(state.sticky());
}

} // namespace cugrade::emu::detail
