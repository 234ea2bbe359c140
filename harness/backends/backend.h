#pragma once
/// \file
/// The one interface the runner uses to reach a device, implemented by the GPU backend
/// (gpu_backend.cu, the CUDA runtime) and the CPU emulation backend (emu_backend.cpp).
///
/// Public non-virtual methods call protected virtual hooks (nvbench's printer shape), so checks
/// common to both backends live in one place.

#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"
#include "harness/protocol/timing.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace cugrade::backends {

/// The outcome of one launcher call, after synchronisation.
struct call_outcome {
  std::string error_kind; ///< empty when the call had no fault (see docs/reports.md for words)
  std::string message;
  bool fatal = false; ///< the device context is unusable afterwards (a sticky CUDA error)
  [[nodiscard]] bool ok() const noexcept { return error_kind.empty(); }
};

/// Device time of one timed call, measured two ways.
struct call_timing {
  call_outcome outcome;
  double event_ms = 0; ///< CUDA events around the call
  double host_ms = 0;  ///< host clock around the call, after a device synchronisation
  /// The call was gated and waited on the device inside (cudaDeviceSynchronize, a copy to the
  /// host, cudaFree...): the gate let go only at its timeout, so this sample's times include
  /// that wait and must not be kept.
  bool gate_expired = false;
};

/// A timed call's output as the timing protocol fingerprints it after every call.
struct output_fingerprint {
  protocol::output_digest digest;
  bool canaries_intact = true; ///< every guard word after the payload still holds the canary
};

class backend {
public:
  virtual ~backend() = default;

  [[nodiscard]] protocol::device_identity identity() const { return do_identity(); }
  /// Device memory; throws cugrade::error when the device cannot provide it (infrastructure).
  [[nodiscard]] void* allocate(std::size_t bytes);
  void release(void* device_ptr) noexcept { do_release(device_ptr); }
  /// False when the device is in a failed state (after a fatal fault).
  [[nodiscard]] bool upload(void* device_dst, const void* host_src, std::size_t bytes);
  [[nodiscard]] bool download(void* host_dst, const void* device_src, std::size_t bytes);
  /// Bytes to allocate after a buffer of `bytes` for canaries (outputs) or padding (inputs).
  /// The emulator answers 0: its guard pages catch the first byte past the end by themselves.
  [[nodiscard]] std::size_t guard_bytes(std::size_t bytes) const { return do_guard_bytes(bytes); }
  /// Called before each run of a case: the emulator picks another thread order per run.
  void before_call(int run) { do_before_call(run); }
  /// Synchronises and collects launch errors, faults and diagnostics of the call just made.
  [[nodiscard]] call_outcome after_call() { return do_after_call(); }
  /// After a faulting call: the host memory of this process that a kernel cannot reach (the
  /// GPU: every readable range but the driver's, host_memory_map.h). Empty where the kernel's
  /// memory is host memory (the emulator, which stops an access to host memory itself).
  [[nodiscard]] std::vector<protocol::address_range> host_memory() const {
    return do_host_memory();
  }
  /// Where fatal fault reports go (the emulator's signal handler writes one JSON line there).
  void set_fault_fd(int fd) { do_set_fault_fd(fd); }
  /// The plan's time limit for the runner to enforce itself (protocol::plan::time_limit_seconds,
  /// 0 for none): the emulator's watchdog; the GPU has none (the grader's limit applies).
  void set_time_limit(double seconds) { do_set_time_limit(seconds); }
  /// Runs `call` between timers (benchmarks); GPU only. With `gated`, a spinning kernel holds
  /// the stream while `call` enqueues its work and is released after the stop event, so the
  /// events time the device work back to back, without the host's launch gaps (nvbench's
  /// blocking kernel). The gate lets go by itself after a timeout, so a call that waits on the
  /// device cannot hang; the timing then says gate_expired.
  [[nodiscard]] call_timing timed_call(const std::function<void()>& call, bool gated) {
    return do_timed_call(call, gated);
  }
  /// Fills `count` 32-bit words at `device_dst` with `word` (the output poison, the canaries).
  /// The GPU does it with a kernel: no host buffer, no transfer.
  [[nodiscard]] bool fill_words(void* device_dst, std::uint32_t word, std::size_t count) {
    return count == 0 || do_fill_words(device_dst, word, count);
  }
  /// Copies `bytes` from device memory to device memory (the timing protocol keeps outputs
  /// there until it saves them).
  [[nodiscard]] bool copy_on_device(void* device_dst, const void* device_src, std::size_t bytes) {
    return bytes == 0 || do_copy_on_device(device_dst, device_src, bytes);
  }
  /// Makes `recipe`'s input (recipe.count floats) at `device_dst`, the bytes the host's
  /// problems::fill_on_host makes. The GPU runs the fill on the device (no host buffer, no
  /// transfer); the default fills on the host and uploads. False when the device refused.
  [[nodiscard]] bool generate(const problems::float_recipe& recipe, void* device_dst) {
    return recipe.count == 0 || do_generate(recipe, device_dst);
  }
  /// Whether `bytes` at two device addresses are equal (an input after the calls against its
  /// pristine copy); false when the device refused, `equal` says the answer.
  [[nodiscard]] bool equal_on_device(const void* a, const void* b, std::size_t bytes, bool& equal) {
    equal = true;
    return bytes == 0 || do_equal_on_device(a, b, bytes, equal);
  }
  /// The digest of the `count` elements of `type` at `device_src` (protocol::digest_of) and
  /// whether the `guard_bytes` after its `payload_bytes` still hold the canary word. The GPU
  /// computes it on the device and reads back only the result.
  [[nodiscard]] bool fingerprint(problems::element_type type, const void* device_src,
                                 std::size_t count, std::size_t payload_bytes,
                                 std::size_t guard_bytes, output_fingerprint& out) {
    return do_fingerprint(type, device_src, count, payload_bytes, guard_bytes, out);
  }
  /// Evicts the L2 cache by writing a buffer twice its size; GPU only. Queued on the stream the
  /// calls use, not waited for: whatever runs next on the device runs after it.
  void flush_cache() { do_flush_cache(); }
  /// Profiling of the launches after the call (protocol::plan::profile): the emulator counts
  /// their warps' memory requests; the GPU marks them as the range Nsight Compute measures from
  /// outside (cudaProfilerStart/Stop).
  void set_profiling(bool on) { do_set_profiling(on); }
  /// The launches profiled since the last call (none on the GPU).
  [[nodiscard]] std::vector<protocol::launch_record> take_profile() { return do_take_profile(); }
  /// The SM clock now, in MHz, or 0 when unknown.
  [[nodiscard]] double sm_clock_mhz() { return do_sm_clock_mhz(); }
  [[nodiscard]] double max_sm_clock_mhz() { return do_max_sm_clock_mhz(); }

protected:
  [[nodiscard]] virtual protocol::device_identity do_identity() const = 0;
  [[nodiscard]] virtual void* do_allocate(std::size_t bytes) = 0;
  virtual void do_release(void* device_ptr) noexcept = 0;
  [[nodiscard]] virtual bool do_upload(void* dst, const void* src, std::size_t bytes) = 0;
  [[nodiscard]] virtual bool do_download(void* dst, const void* src, std::size_t bytes) = 0;
  [[nodiscard]] virtual std::size_t do_guard_bytes(std::size_t bytes) const = 0;
  virtual void do_before_call(int run) = 0;
  [[nodiscard]] virtual call_outcome do_after_call() = 0;
  virtual void do_set_fault_fd(int fd) = 0;
  virtual void do_set_time_limit(double /*seconds*/) {}
  [[nodiscard]] virtual std::vector<protocol::address_range> do_host_memory() const { return {}; }
  [[nodiscard]] virtual call_timing do_timed_call(const std::function<void()>& call,
                                                  bool gated) = 0;
  virtual void do_flush_cache() = 0;
  // Defaults go through the host (upload, download, protocol::digest_of); the GPU overrides them.
  [[nodiscard]] virtual bool do_fill_words(void* dst, std::uint32_t word, std::size_t count);
  [[nodiscard]] virtual bool do_copy_on_device(void* dst, const void* src, std::size_t bytes);
  [[nodiscard]] virtual bool do_generate(const problems::float_recipe& recipe, void* dst);
  [[nodiscard]] virtual bool do_equal_on_device(const void* a, const void* b, std::size_t bytes,
                                                bool& equal);
  [[nodiscard]] virtual bool do_fingerprint(problems::element_type type, const void* src,
                                            std::size_t count, std::size_t payload_bytes,
                                            std::size_t guard_bytes, output_fingerprint& out);
  virtual void do_set_profiling(bool /*on*/) {}
  [[nodiscard]] virtual std::vector<protocol::launch_record> do_take_profile() { return {}; }
  [[nodiscard]] virtual double do_sm_clock_mhz() = 0;
  [[nodiscard]] virtual double do_max_sm_clock_mhz() = 0;
};

/// The backend this runner program was linked with.
[[nodiscard]] std::unique_ptr<backend> make_backend();

} // namespace cugrade::backends
