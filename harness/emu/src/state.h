#pragma once
/// \file
/// Process-wide emulator state: the last and the sticky error, collected diagnostics, the chosen
/// schedule order, and what is known about each kernel (attributes set by the host, static shared
/// memory seen while running).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cugrade_emu/api.h"
#include "cugrade_emu_control.h"

namespace cugrade::emu::detail {

struct kernel_info {
  int max_dynamic_shared = -1;   ///< cudaFuncAttributeMaxDynamicSharedMemorySize; -1 if unset
  std::size_t static_shared = 0; ///< largest static shared use seen in a block so far
};

struct schedule_choice {
  schedule_order order = schedule_order::forward;
  std::uint64_t seed = 0;
};

class emulator_state {
public:
  static emulator_state& instance();

  /// Records a failed call's error as the last error and returns it (success passes through).
  cudaError_t result(cudaError_t e);
  /// The same for a host API call that can say what was wrong with its arguments: `call`
  /// ("cudaMemcpy") and `why` stay with the last error until another error or cudaGetLastError.
  cudaError_t failed_call(cudaError_t e, const char* call, std::string why);
  /// The call and the reason behind the last error, where the call that set it said them.
  [[nodiscard]] std::optional<failed_api_call> last_failed_call() const;
  /// The sticky error left by a fault in a kernel, or cudaSuccess.
  [[nodiscard]] cudaError_t sticky() const { return static_cast<cudaError_t>(m_sticky.load()); }
  /// Makes every later API call fail with `e` (the first sticky error wins, as on a GPU).
  void set_sticky(cudaError_t e);
  /// The last error; `reset` clears it unless it is sticky.
  cudaError_t last_error(bool reset);

  void add_diagnostic(diagnostic d);
  std::vector<diagnostic> take_diagnostics();

  /// Whether launches check shared-memory accesses (hazards and bounds); on by default.
  void set_shared_checks(bool on) { m_shared_checks.store(on); }
  [[nodiscard]] bool shared_checks() const { return m_shared_checks.load(); }

  void set_schedule(schedule_choice c);
  [[nodiscard]] schedule_choice schedule() const;

  [[nodiscard]] kernel_info kernel(const void* key) const;
  void set_max_dynamic_shared(const void* key, int bytes);
  void note_static_shared(const void* key, std::size_t bytes);

  /// Errors (sticky too), diagnostics and kernel attributes back to a fresh device's.
  void reset();

private:
  mutable std::mutex m_mutex;
  std::atomic<int> m_sticky{cudaSuccess};
  std::atomic<int> m_last{cudaSuccess};
  std::atomic<bool> m_shared_checks{true};
  std::optional<failed_api_call> m_failed_call; ///< guarded by m_mutex
  std::vector<diagnostic> m_diagnostics;
  schedule_choice m_schedule;
  std::map<const void*, kernel_info> m_kernels;
};

/// The sticky error as the result of an API call (recorded as the last error), or cudaSuccess.
cudaError_t sticky_result();

} // namespace cugrade::emu::detail
