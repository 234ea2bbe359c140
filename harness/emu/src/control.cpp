// The runner's controls (cugrade_emu_control.h).
#include "cugrade_emu_control.h"

#include "harness/emu/src/atomic_contention.h"
#include "harness/emu/src/fault_handler.h"
#include "harness/emu/src/memory.h"
#include "harness/emu/src/state.h"
#include "harness/emu/src/warp_profile.h"
#include "harness/emu/src/watchdog.h"
#include "harness/emu/src/worker_pool.h"

namespace cugrade::emu {

void set_schedule_order(schedule_order order, std::uint64_t seed) {
  detail::emulator_state::instance().set_schedule({order, seed});
}

std::vector<diagnostic> take_diagnostics() {
  return detail::emulator_state::instance().take_diagnostics();
}

std::optional<failed_api_call> last_failed_call() {
  return detail::emulator_state::instance().last_failed_call();
}

void set_fault_report_fd(int fd) {
  detail::runtime_init();
  detail::set_fault_fd(fd);
}

void set_host_guard(bool on) {
  detail::device_memory::instance().set_host_guard(on);
}

void set_time_limit(double seconds) {
  detail::runtime_init();
  detail::set_watchdog_limit(seconds);
}

void set_shared_checks(bool on) {
  detail::emulator_state::instance().set_shared_checks(on);
}

void set_profiling(bool on) {
  detail::profile_store::instance().set_enabled(on);
}

std::vector<launch_profile> take_profiles() {
  return detail::profile_store::instance().take();
}

void set_worker_count(unsigned count) {
  detail::worker_pool::instance().set_size(count);
}

void set_contention_policy(contention_policy policy) {
  detail::set_contention_policy(policy);
}

bool last_launch_contended() {
  return detail::last_launch_contended();
}

void reset_device() {
  detail::device_memory::instance().release_all();
  detail::emulator_state::instance().reset();
}

} // namespace cugrade::emu
