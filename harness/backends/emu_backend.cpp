// The CPU emulation backend: the emulator's runtime behind the runner's backend interface.
// Emulated time is never reported as GPU performance: timed_call measures the host clock only
// and the grader labels it as emulation.

#include "harness/backends/backend.h"

#include <chrono>
#include <cuda_runtime.h>
#include <cugrade_emu_control.h>
#include <string>

namespace cugrade::backends {

namespace {

// The error kind a host API error is graded as.
std::string error_kind_of(cudaError_t e) {
  return e == cudaErrorInvalidConfiguration || e == cudaErrorInvalidValue ? "launch_failure"
                                                                          : "cuda_error";
}

call_outcome outcome_of(cudaError_t e, const char* when) {
  if (e == cudaSuccess) {
    return {};
  }
  return {error_kind_of(e),
          std::string(cudaGetErrorName(e)) + " " + when + ": " + cudaGetErrorString(e), false};
}

// "cudaErrorInvalidValue from cudaMemcpy in the launcher (invalid argument): with
// cudaMemcpyDeviceToHost, the source must be device memory ...": the call and what was wrong.
call_outcome outcome_of(cudaError_t e, const emu::failed_api_call& call) {
  return {error_kind_of(e),
          std::string(cudaGetErrorName(e)) + " from " + call.call + " in the launcher (" +
              cudaGetErrorString(e) + "): " + call.why,
          false};
}

// A diagnostic's place is added to its message, except for the shared-memory checks' race and
// out_of_bounds, whose messages name their lines themselves (the last place a message names is
// where the grader points the student). A race leaves the device usable, as racecheck's
// findings do: the kernel ran to its end; every other diagnosed fault leaves a sticky error.
call_outcome outcome_of(const emu::diagnostic& d) {
  const bool named = d.file.empty() || d.error_kind == "race" || d.error_kind == "out_of_bounds";
  const std::string where = named ? "" : " at " + d.file + ":" + std::to_string(d.line);
  return {d.error_kind, d.message + where, d.error_kind != "race"};
}

class emu_backend final : public backend {
protected:
  protocol::device_identity do_identity() const override {
    cudaDeviceProp props{};
    cudaGetDeviceProperties(&props, 0);
    return {"emu", props.name, "none", "cugrade emulator", "", ""};
  }
  void* do_allocate(std::size_t bytes) override {
    void* p = nullptr;
    return cudaMalloc(&p, bytes) == cudaSuccess ? p : nullptr;
  }
  void do_release(void* p) noexcept override { cudaFree(p); }
  bool do_upload(void* dst, const void* src, std::size_t bytes) override {
    return cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice) == cudaSuccess;
  }
  bool do_download(void* dst, const void* src, std::size_t bytes) override {
    return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
  }
  // Exact-size buffers: the emulator's guard pages report the first byte past the end, with
  // the thread and the source line.
  std::size_t do_guard_bytes(std::size_t) const override { return 0; }

  // Each run of a case uses another order of the threads of a block between barriers, so a
  // result that depends on the schedule (a missing barrier) shows up as a difference. During
  // the call, device buffers are closed to host code, as a GPU's are: a launcher that
  // dereferences a device pointer faults (a crash, as on a GPU) instead of passing.
  void do_before_call(int run) override {
    (void)cudaGetLastError();
    emu::set_schedule_order(run % 2 == 0 ? emu::schedule_order::forward
                                         : emu::schedule_order::reverse);
    emu::set_host_guard(true);
  }

  call_outcome do_after_call() override {
    emu::set_host_guard(false);
    const auto failed = emu::last_failed_call(); // before cudaGetLastError forgets it
    const cudaError_t launch = cudaGetLastError();
    const cudaError_t sync = cudaDeviceSynchronize();
    const auto diagnostics = emu::take_diagnostics();
    if (!diagnostics.empty()) {
      return outcome_of(diagnostics.front());
    }
    if (launch != cudaSuccess && failed) {
      // Not a launch: a call of the launcher's own that said what was wrong with it. The GPU's
      // runtime does not say which call set the error, so there it reads "at launch".
      return outcome_of(launch, *failed);
    }
    if (launch != cudaSuccess) {
      return outcome_of(launch, "at launch");
    }
    return outcome_of(sync, "while running");
  }

  void do_set_fault_fd(int fd) override { emu::set_fault_report_fd(fd); }
  void do_set_time_limit(double seconds) override { emu::set_time_limit(seconds); }

  // Nothing to gate: the emulator runs the call's work inside it.
  call_timing do_timed_call(const std::function<void()>& call, bool /*gated*/) override {
    emu::set_host_guard(true);
    const auto t0 = std::chrono::steady_clock::now();
    call();
    call_timing t;
    t.outcome = do_after_call();
    const auto t1 = std::chrono::steady_clock::now();
    t.host_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    t.event_ms = t.host_ms;
    return t;
  }
  void do_flush_cache() override {}
  void do_set_profiling(bool on) override { emu::set_profiling(on); }
  std::vector<protocol::launch_record> do_take_profile() override {
    std::vector<protocol::launch_record> out;
    for (const emu::launch_profile& l : emu::take_profiles()) {
      protocol::launch_record r{l.kernel, l.file, l.grid, l.block, l.static_shared,
                                l.dynamic_shared, l.left_out, {}};
      for (const emu::access_counts& a : l.accesses) {
        r.accesses.push_back(
            {a.line, a.space, a.op, a.requests, a.units, a.ideal_units, a.lanes, a.bytes,
             a.packed_requests});
      }
      out.push_back(std::move(r));
    }
    return out;
  }
  double do_sm_clock_mhz() override { return 0; }
  double do_max_sm_clock_mhz() override { return 0; }
};

} // namespace

std::unique_ptr<backend> make_backend() {
  return std::make_unique<emu_backend>();
}

} // namespace cugrade::backends
