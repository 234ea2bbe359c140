#include "harness/emu/src/runtime_checks.h"

#include <cstdio>
#include <string>

#include "harness/emu/src/memory.h"
#include "harness/emu/src/state.h"

namespace cugrade::emu::detail {

bool check_canaries(const char* kernel) {
  const std::vector<canary_damage> damage = device_memory::instance().check_canaries();
  auto& state = emulator_state::instance();
  for (const canary_damage& d : damage) {
    diagnostic diag;
    diag.error_kind = "out_of_bounds";
    const std::string who =
        kernel != nullptr ? "kernel " + std::string(kernel) : std::string("code run before now");
    char start[2 + 16 + 1];
    std::snprintf(start, sizeof start, "0x%llx", static_cast<unsigned long long>(d.start));
    diag.message = who + " wrote " + std::to_string(d.bytes_before_start) +
                   " bytes before the start of a " + std::to_string(d.buffer_size) +
                   "-byte device buffer at " + start +
                   " (found by the canary check after it ran; which thread wrote is unknown)";
    diag.kernel = kernel != nullptr ? kernel : "";
    state.add_diagnostic(std::move(diag));
    state.set_sticky(cudaErrorIllegalAddress);
  }
  return !damage.empty();
}

} // namespace cugrade::emu::detail
