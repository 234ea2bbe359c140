// The GPU backend: the CUDA runtime behind the runner's backend interface.
// Only runner processes link this; the grader never initialises CUDA.

#include "harness/backends/backend.h"
#include "harness/backends/cuda_check.h"

#include <chrono>
#include <cuda_runtime.h>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace cugrade::backends {

namespace {

// Faults that leave the context unusable (sticky errors): every later call fails too.
bool is_sticky(cudaError_t e) {
  switch (e) {
  case cudaErrorIllegalAddress:
  case cudaErrorMisalignedAddress:
  case cudaErrorLaunchFailure:
  case cudaErrorAssert:
  case cudaErrorIllegalInstruction:
  case cudaErrorHardwareStackError:
  case cudaErrorInvalidAddressSpace:
  case cudaErrorInvalidPc:
  case cudaErrorLaunchTimeout:
    return true;
  default:
    return false;
  }
}

std::string error_kind_of(cudaError_t e) {
  switch (e) {
  case cudaErrorIllegalAddress:
    return "illegal_address";
  case cudaErrorMisalignedAddress:
    return "misaligned_address";
  case cudaErrorAssert:
    return "device_assert";
  case cudaErrorIllegalInstruction:
    return "illegal_instruction";
  case cudaErrorHardwareStackError:
    return "stack_overflow";
  case cudaErrorLaunchTimeout:
    return "deadlock";
  case cudaErrorLaunchFailure:
  case cudaErrorInvalidConfiguration:
  case cudaErrorInvalidValue:
  case cudaErrorLaunchOutOfResources:
  case cudaErrorInvalidDeviceFunction:
  case cudaErrorNoKernelImageForDevice:
    return "launch_failure";
  default:
    return "cuda_error";
  }
}

call_outcome outcome_of(cudaError_t e, const char* when) {
  if (e == cudaSuccess) {
    return {};
  }
  return {error_kind_of(e),
          std::string(cudaGetErrorName(e)) + " " + when + ": " + cudaGetErrorString(e),
          is_sticky(e)};
}

// Reads the SM clock from inside a kernel: cycles counted by clock64() against the global
// nanosecond timer over a short spin.
__global__ void sm_clock_probe(unsigned long long* out) {
  unsigned long long t0 = 0;
  unsigned long long t1 = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const long long c0 = clock64();
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  } while (t1 - t0 < 20000);
  const long long c1 = clock64();
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

// How long a launch gate holds the stream at most. Enqueueing a launcher's work takes
// microseconds; a launcher that waits on the device inside the call waits for the gate, which
// lets go after this and says so (the sample is then not kept, and the case goes on ungated).
constexpr unsigned long long gate_timeout_ns = 100'000'000;

// Holds the stream until the host sets *release (or the timeout passes: *expired = 1), so the
// work enqueued behind it starts back to back when released. `release` is mapped host memory.
__global__ void launch_gate(const volatile int* release, int* expired) {
  unsigned long long t0 = 0;
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (*release == 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - t0 > gate_timeout_ns) {
      *expired = 1;
      return;
    }
  }
}

// Leaves no dirty line of the flush buffer in the L2: after the memset the cache is full of
// them, and their write-back would otherwise be charged to the next timed kernel (about 11 us on
// an H200, measured against Nsight Compute, whose kernels start with flushed caches). From
// sm_80 on, discard.global.L2 drops each 128-byte line without writing it back (the buffer's
// contents are never read); before that, reading the buffer back replaces dirty lines with
// clean ones.
__global__ void clean_flush_lines(const uint4* words, std::size_t count, unsigned* sink) {
  constexpr std::size_t words_per_line = 128 / sizeof(uint4);
  unsigned sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       i * words_per_line < count; i += static_cast<std::size_t>(blockDim.x) * gridDim.x) {
#if __CUDA_ARCH__ >= 800
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(words + i * words_per_line) : "memory");
#else
    for (std::size_t w = 0; w < words_per_line; ++w) {
      const uint4 v = words[i * words_per_line + w];
      sum ^= v.x ^ v.y ^ v.z ^ v.w;
    }
#endif
  }
  if (sum == 0x9e3779b9u && threadIdx.x == 0xffffu) { // never: keeps the reads
    *sink = sum;
  }
}

class gpu_backend final : public backend {
public:
  gpu_backend() {
    CUGRADE_CUDA_CHECK(cudaSetDevice(0));
    CUGRADE_CUDA_CHECK(cudaGetDeviceProperties(&m_props, 0));
    CUGRADE_CUDA_CHECK(cudaMalloc(&m_clock_words, 2 * sizeof(unsigned long long)));
    CUGRADE_CUDA_CHECK(cudaHostAlloc(&m_gate, 2 * sizeof(int), cudaHostAllocMapped));
    CUGRADE_CUDA_CHECK(cudaHostGetDevicePointer(&m_gate_on_device, m_gate, 0));
  }
  ~gpu_backend() override {
    CUGRADE_CUDA_CHECK_NOEXCEPT(cudaFree(m_flush));
    CUGRADE_CUDA_CHECK_NOEXCEPT(cudaFree(m_clock_words));
    CUGRADE_CUDA_CHECK_NOEXCEPT(cudaFreeHost(m_gate));
  }

protected:
  protocol::device_identity do_identity() const override {
    int driver = 0;
    int runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    return {"gpu", m_props.name, version_text(driver), version_text(runtime)};
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
  // Generous: a kernel without boundary checks may store whole rows past the end.
  std::size_t do_guard_bytes(std::size_t bytes) const override {
    const std::size_t quarter = (bytes / 4 + 3) / 4 * 4;
    const std::size_t floor_bytes = 64 * 1024;
    const std::size_t cap = std::size_t{64} << 20;
    return std::min(cap, std::max(floor_bytes, quarter));
  }
  void do_before_call(int) override { (void)cudaGetLastError(); }

  call_outcome do_after_call() override {
    const cudaError_t launch = cudaGetLastError();
    const cudaError_t sync = cudaDeviceSynchronize();
    if (launch != cudaSuccess) {
      return outcome_of(launch, "at launch");
    }
    return outcome_of(sync, "while running");
  }

  void do_set_fault_fd(int) override {}

  call_timing do_timed_call(const std::function<void()>& call, bool gated) override {
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    CUGRADE_CUDA_CHECK(cudaEventCreate(&start));
    CUGRADE_CUDA_CHECK(cudaEventCreate(&stop));
    CUGRADE_CUDA_CHECK(cudaDeviceSynchronize());
    if (gated) {
      close_gate();
    }
    const auto t0 = std::chrono::steady_clock::now();
    CUGRADE_CUDA_CHECK(cudaEventRecord(start));
    call();
    const cudaError_t launch = cudaGetLastError();
    CUGRADE_CUDA_CHECK_NOEXCEPT(cudaEventRecord(stop));
    if (gated) {
      __atomic_store_n(&m_gate[0], 1, __ATOMIC_RELEASE);
    }
    const cudaError_t sync = cudaDeviceSynchronize();
    const auto t1 = std::chrono::steady_clock::now();
    call_timing t;
    t.outcome =
        launch != cudaSuccess ? outcome_of(launch, "at launch") : outcome_of(sync, "while running");
    t.gate_expired = gated && __atomic_load_n(&m_gate[1], __ATOMIC_ACQUIRE) != 0;
    float ms = 0;
    if (t.outcome.ok()) {
      CUGRADE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    }
    t.event_ms = ms;
    t.host_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    CUGRADE_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(start));
    CUGRADE_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(stop));
    return t;
  }

  // Writing twice the L2 size evicts whatever the previous sample left there; dropping the flush
  // buffer's own lines then leaves a clean cache, so no write-back lands in the sample.
  void do_flush_cache() override {
    const std::size_t bytes = 2 * static_cast<std::size_t>(m_props.l2CacheSize);
    if (m_flush == nullptr) {
      CUGRADE_CUDA_CHECK(cudaMalloc(&m_flush, bytes));
    }
    CUGRADE_CUDA_CHECK(cudaMemset(m_flush, m_flush_value++ & 0xff, bytes));
    clean_flush_lines<<<4 * m_props.multiProcessorCount, 256>>>(
        static_cast<const uint4*>(m_flush), bytes / sizeof(uint4),
        reinterpret_cast<unsigned*>(m_clock_words));
    CUGRADE_CUDA_CHECK(cudaGetLastError());
    CUGRADE_CUDA_CHECK(cudaDeviceSynchronize());
  }

  double do_sm_clock_mhz() override {
    sm_clock_probe<<<1, 1>>>(m_clock_words);
    unsigned long long words[2] = {0, 0};
    if (cudaMemcpy(words, m_clock_words, sizeof words, cudaMemcpyDeviceToHost) != cudaSuccess ||
        words[1] == 0) {
      return 0;
    }
    return 1000.0 * static_cast<double>(words[0]) / static_cast<double>(words[1]);
  }

  double do_max_sm_clock_mhz() override {
    int khz = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) != cudaSuccess) {
      return 0;
    }
    return khz / 1000.0;
  }

private:
  // Launches the gate on the (legacy default) stream the launchers use; a failure here is the
  // harness's, not the launcher's.
  void close_gate() {
    __atomic_store_n(&m_gate[0], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&m_gate[1], 0, __ATOMIC_RELEASE);
    launch_gate<<<1, 1>>>(m_gate_on_device, m_gate_on_device + 1);
    CUGRADE_CUDA_CHECK(cudaGetLastError());
  }

  static std::string version_text(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  }

  cudaDeviceProp m_props{};
  void* m_flush = nullptr;
  int m_flush_value = 1;
  unsigned long long* m_clock_words = nullptr;
  int* m_gate = nullptr; ///< [0] release, [1] expired: mapped host memory
  int* m_gate_on_device = nullptr;
};

} // namespace

// Without a GPU the runtime reports an "insufficient driver" (no libcuda at all) or "no device";
// say plainly that there is no GPU rather than blaming a driver version.
void require_a_gpu() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  const bool driver_loaded = std::filesystem::exists("/proc/driver/nvidia/version");
  if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0) ||
      (e == cudaErrorInsufficientDriver && !driver_loaded)) {
    throw std::runtime_error(
        std::string("no NVIDIA GPU found (") +
        (driver_loaded ? "the NVIDIA driver sees no device" : "no NVIDIA driver is loaded") + ")");
  }
}

std::unique_ptr<backend> make_backend() {
  require_a_gpu();
  return std::make_unique<gpu_backend>();
}

} // namespace cugrade::backends
