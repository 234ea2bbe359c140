// The GPU backend: the CUDA runtime behind the runner's backend interface.
// Only runner processes link this; the grader never initialises CUDA.

#include "harness/backends/backend.h"
#include "harness/backends/cuda_check.h"
#include "harness/backends/host_fault_report.h"
#include "harness/backends/host_memory_map.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cuda_profiler_api.h>
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

__global__ void fill_words_kernel(std::uint32_t* words, std::size_t count, std::uint32_t word) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(blockDim.x) * gridDim.x) {
    words[i] = word;
  }
}

// One thread per chunk of a generated input (problems::float_fill.h): the chunk's own stream
// makes its elements in order, the same code as on the host. A 4096x1024x2048 matmul input set
// (6 Mi floats, 96 chunks) took 6.5 ms on an H200, launches and synchronisation included
// (gpu_device_inputs_test); the host's cores took tens of milliseconds and the upload as long
// again.
__global__ void generate_kernel(problems::float_recipe recipe, float* out) {
  const std::size_t chunk = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t first = chunk * problems::generation_chunk;
  if (first >= recipe.count) {
    return;
  }
  const std::size_t n = recipe.count - first < problems::generation_chunk
                            ? recipe.count - first
                            : problems::generation_chunk;
  auto rng = problems::chunk_stream(recipe.seed, chunk);
  problems::fill_chunk(recipe.fill, rng, out + first, n, recipe.negate);
}

// Counts the bytes that differ between two buffers (an input and its pristine copy).
__global__ void count_differences(const unsigned char* a, const unsigned char* b, std::size_t bytes,
                                  unsigned long long* differences) {
  unsigned long long mine = 0;
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  const std::size_t words = bytes / 16;
  const auto* wa = reinterpret_cast<const uint4*>(a);
  const auto* wb = reinterpret_cast<const uint4*>(b);
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += stride) {
    const uint4 x = wa[i];
    const uint4 y = wb[i];
    mine += (x.x != y.x) + (x.y != y.y) + (x.z != y.z) + (x.w != y.w);
  }
  for (std::size_t i = 16 * words + blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       i < bytes; i += stride) {
    mine += a[i] != b[i];
  }
  if (mine != 0) {
    atomicAdd(differences, mine);
  }
}

// protocol::digest_of on the device, plus the canary check of the guard words after the payload.
struct device_digest {
  double sum;
  double abs_sum;
  unsigned long long poison_words;
  unsigned long long non_finite;
  unsigned long long bad_canaries;
};

struct digest_part {
  double sum = 0;
  double abs_sum = 0;
  unsigned long long poison = 0;
  unsigned long long non_finite = 0;
  unsigned long long bad = 0;
};

__device__ void add_word(digest_part& p, std::uint32_t word, bool is_float) {
  if (word == problems::output_poison_word) {
    ++p.poison;
    return;
  }
  double v = word;
  if (is_float) {
    const float f = __uint_as_float(word);
    if (!isfinite(f)) {
      ++p.non_finite;
      return;
    }
    v = f;
  }
  p.sum += v;
  p.abs_sum += fabs(v);
}

__device__ digest_part warp_sum(digest_part p) {
  for (int offset = 16; offset > 0; offset /= 2) {
    p.sum += __shfl_down_sync(0xffffffffu, p.sum, offset);
    p.abs_sum += __shfl_down_sync(0xffffffffu, p.abs_sum, offset);
    p.poison += __shfl_down_sync(0xffffffffu, p.poison, offset);
    p.non_finite += __shfl_down_sync(0xffffffffu, p.non_finite, offset);
    p.bad += __shfl_down_sync(0xffffffffu, p.bad, offset);
  }
  return p;
}

// One part per thread, summed per warp and added to *out with atomics (the order of a float sum
// does not matter here: the grader compares digests with a tolerance of 1e-3 of the sum of
// absolute values, and counts exactly).
__global__ void digest_kernel(const std::uint32_t* words, std::size_t count, bool is_float,
                              std::size_t guard_words, device_digest* out) {
  digest_part p;
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  for (std::size_t i = first; i < count; i += stride) {
    add_word(p, words[i], is_float);
  }
  for (std::size_t i = first; i < guard_words; i += stride) {
    p.bad += words[count + i] != problems::output_canary_word ? 1 : 0;
  }
  p = warp_sum(p);
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&out->sum, p.sum);
    atomicAdd(&out->abs_sum, p.abs_sum);
    atomicAdd(&out->poison_words, p.poison);
    atomicAdd(&out->non_finite, p.non_finite);
    atomicAdd(&out->bad_canaries, p.bad);
  }
}

class gpu_backend final : public backend {
public:
  gpu_backend() {
    CUGRADE_CUDA_CHECK(cudaSetDevice(0));
    CUGRADE_CUDA_CHECK(cudaGetDeviceProperties(&m_props, 0));
    CUGRADE_CUDA_CHECK(cudaMalloc(&m_clock_words, 2 * sizeof(unsigned long long)));
    CUGRADE_CUDA_CHECK(cudaMalloc(&m_digest, sizeof(device_digest)));
    CUGRADE_CUDA_CHECK(cudaHostAlloc(&m_gate, 2 * sizeof(int), cudaHostAllocMapped));
    CUGRADE_CUDA_CHECK(cudaHostGetDevicePointer(&m_gate_on_device, m_gate, 0));
    // Made once, not per timed call: creating and destroying two events per sample was host time
    // in every sample's wall time.
    for (auto& e : m_events) {
      CUGRADE_CUDA_CHECK(cudaEventCreate(&e));
    }
  }
  ~gpu_backend() override {
    CUGRADE_CUDA_CHECK_NOEXCEPT(cudaFree(m_flush));
    CUGRADE_CUDA_CHECK_NOEXCEPT(cudaFree(m_clock_words));
    CUGRADE_CUDA_CHECK_NOEXCEPT(cudaFree(m_digest));
    CUGRADE_CUDA_CHECK_NOEXCEPT(cudaFreeHost(m_gate));
    for (auto* e : m_events) {
      CUGRADE_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(e));
    }
  }

protected:
  protocol::device_identity do_identity() const override {
    int driver = 0;
    int runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    return {"gpu",
            m_props.name,
            version_text(driver),
            version_text(runtime),
            uuid_text(m_props.uuid),
            std::to_string(m_props.major) + std::to_string(m_props.minor)};
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

  std::vector<protocol::address_range> do_host_memory() const override {
    return readable_host_memory();
  }

  // A fault in the launcher's host code (a device pointer dereferenced) reports its line.
  void do_set_fault_fd(int fd) override { report_host_faults_to(fd); }
  // The profiled call, and only it, is what Nsight Compute measures: the grader starts it with
  // --profile-from-start off (grader/perf/kernel_counters.cpp), so the harness's own kernels
  // (input generation, fingerprints) stay out of the student's counts.
  void do_set_profiling(bool on) override { (void)(on ? cudaProfilerStart() : cudaProfilerStop()); }

  bool do_fill_words(void* dst, std::uint32_t word, std::size_t count) override {
    fill_words_kernel<<<grid_for(count), 256>>>(static_cast<std::uint32_t*>(dst), count, word);
    return cudaGetLastError() == cudaSuccess;
  }

  bool do_generate(const problems::float_recipe& recipe, void* dst) override {
    constexpr unsigned threads = 64;
    const auto chunks = problems::chunk_count(recipe.count);
    generate_kernel<<<static_cast<unsigned>((chunks + threads - 1) / threads), threads>>>(
        recipe, static_cast<float*>(dst));
    return cudaGetLastError() == cudaSuccess;
  }

  bool do_copy_on_device(void* dst, const void* src, std::size_t bytes) override {
    return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice) == cudaSuccess;
  }

  // cudaMalloc'ed buffers are aligned far beyond the 16 bytes the comparison reads at a time.
  bool do_equal_on_device(const void* a, const void* b, std::size_t bytes, bool& equal) override {
    auto* differences = reinterpret_cast<unsigned long long*>(m_digest);
    if (cudaMemset(differences, 0, sizeof *differences) != cudaSuccess) {
      return false;
    }
    count_differences<<<grid_for(bytes / 16 + 1), 256>>>(static_cast<const unsigned char*>(a),
                                                         static_cast<const unsigned char*>(b),
                                                         bytes, differences);
    unsigned long long found = 0;
    if (cudaGetLastError() != cudaSuccess ||
        cudaMemcpy(&found, differences, sizeof found, cudaMemcpyDeviceToHost) != cudaSuccess) {
      return false;
    }
    equal = found == 0;
    return true;
  }

  bool do_fingerprint(problems::element_type type, const void* src, std::size_t count,
                      std::size_t payload_bytes, std::size_t guard_bytes,
                      output_fingerprint& out) override {
    if (type == problems::element_type::u8 || payload_bytes != 4 * count) {
      return backend::do_fingerprint(type, src, count, payload_bytes, guard_bytes, out);
    }
    if (cudaMemset(m_digest, 0, sizeof(device_digest)) != cudaSuccess) {
      return false;
    }
    const std::size_t guard_words = guard_bytes / 4;
    digest_kernel<<<grid_for(std::max(count, guard_words)), 256>>>(
        static_cast<const std::uint32_t*>(src), count, type == problems::element_type::f32,
        guard_words, m_digest);
    device_digest d{};
    if (cudaGetLastError() != cudaSuccess ||
        cudaMemcpy(&d, m_digest, sizeof d, cudaMemcpyDeviceToHost) != cudaSuccess) {
      return false;
    }
    out.digest = {d.sum, d.abs_sum, static_cast<std::size_t>(d.poison_words),
                  static_cast<std::size_t>(d.non_finite)};
    out.canaries_intact = d.bad_canaries == 0;
    return true;
  }

  call_timing do_timed_call(const std::function<void()>& call, bool gated) override {
    cudaEvent_t start = m_events[0];
    cudaEvent_t stop = m_events[1];
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
    return t;
  }

  // Writing twice the L2 size evicts whatever the previous sample left there; dropping the flush
  // buffer's own lines then leaves a clean cache, so no write-back lands in the sample. No wait
  // for it here: the next call that waits (the clock probe's read, the timed call's synchronise)
  // comes after it on the same stream, so a sample pays one host round trip less.
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

  // Enough blocks of 256 threads to cover `count` words, at most four per SM (grid-stride).
  unsigned grid_for(std::size_t count) const {
    const std::size_t blocks = (count + 255) / 256;
    const std::size_t cap = 4 * static_cast<std::size_t>(m_props.multiProcessorCount);
    return static_cast<unsigned>(std::max<std::size_t>(1, std::min(blocks, cap)));
  }

  // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi writes it.
  static std::string uuid_text(const cudaUUID_t& uuid) {
    static const char* hex = "0123456789abcdef";
    std::string text = "GPU-";
    for (int i = 0; i < 16; ++i) {
      const auto byte = static_cast<unsigned char>(uuid.bytes[i]);
      if (i == 4 || i == 6 || i == 8 || i == 10) {
        text += '-';
      }
      text += hex[byte >> 4];
      text += hex[byte & 15];
    }
    return text;
  }

  static std::string version_text(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  }

  cudaDeviceProp m_props{};
  void* m_flush = nullptr;
  int m_flush_value = 1;
  unsigned long long* m_clock_words = nullptr;
  device_digest* m_digest = nullptr;
  int* m_gate = nullptr; ///< [0] release, [1] expired: mapped host memory
  int* m_gate_on_device = nullptr;
  cudaEvent_t m_events[2] = {nullptr, nullptr}; ///< a timed call's start and stop
};

// GPUs the loaded driver lists (/proc/driver/nvidia/gpus/<bus id>), whether CUDA can use them or
// not.
std::size_t gpus_the_driver_lists() {
  std::error_code ec;
  std::size_t n = 0;
  for (std::filesystem::directory_iterator it("/proc/driver/nvidia/gpus", ec), end;
       !ec && it != end; it.increment(ec)) {
    ++n;
  }
  return n;
}

// Why CUDA sees no device although a driver is loaded: none listed, or listed but unusable (a GPU
// whose firmware stopped answering, Xid 119, waits for a reset and CUDA then counts no device).
std::string why_no_device() {
  const auto listed = gpus_the_driver_lists();
  if (listed == 0) {
    return "the NVIDIA driver sees no device";
  }
  return "the NVIDIA driver lists " + std::to_string(listed) + " GPU" + (listed == 1 ? "" : "s") +
         " but CUDA can use none: a GPU may need a reset; `nvidia-smi -q` shows its \"GPU "
         "Recovery Action\" and the kernel log its Xid errors";
}

} // namespace

// Without a GPU the runtime reports an "insufficient driver" (no libcuda at all) or "no device";
// say plainly that there is no GPU rather than blaming a driver version.
void require_a_gpu() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  const bool driver_loaded = std::filesystem::exists("/proc/driver/nvidia/version");
  if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0) ||
      (e == cudaErrorInsufficientDriver && !driver_loaded)) {
    throw std::runtime_error(std::string("no NVIDIA GPU found (") +
                             (driver_loaded ? why_no_device() : "no NVIDIA driver is loaded") +
                             ")");
  }
}

std::unique_ptr<backend> make_backend() {
  require_a_gpu();
  return std::make_unique<gpu_backend>();
}

} // namespace cugrade::backends
