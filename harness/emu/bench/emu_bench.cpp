// emu_bench: how fast the emulator runs course kernels, next to plain C++ doing the same work,
// with the shared-memory checks (hazards and bounds, as grading runs them) on and off, and with
// region forms off (every block on fibers, as before region forms).
// All emulated timings use ONE worker thread (the calling thread runs every block), and times are
// the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), best of several runs (one for the two
// huge launches), so a busy machine disturbs them less. `emu_bench --quick` leaves out the 2^32
// launch. The last line, `emulated/native: R`, is
//   R = emulated tiled 512x512x512 matmul (16x16 tiles), checks on / native triple loop.
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cuda_runtime_api.h"
#include "cugrade_emu_control.h"

namespace {

constexpr int k_width = 512;
constexpr int k_reps = 3;

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double wall_seconds() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// The best time of `work` over `reps` runs, by `clock` (the thread's CPU time unless told).
double best_of(const std::function<void()>& work, int reps = k_reps,
               double (*clock)() = thread_seconds) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const double start = clock();
    work();
    best = std::min(best, clock() - start);
  }
  return best;
}

// The baseline: the textbook triple loop, one thread, no tricks.
__attribute__((noinline)) void native_matmul(const float* M, const float* N, float* P, int w) {
  for (int row = 0; row < w; ++row) {
    for (int col = 0; col < w; ++col) {
      float sum = 0.0f;
      for (int e = 0; e < w; ++e) {
        sum += M[row * w + e] * N[e * w + col];
      }
      P[row * w + col] = sum;
    }
  }
}

__attribute__((noinline)) float native_sum(const float* in, long n) {
  float sum = 0.0f;
  for (long i = 0; i < n; ++i) {
    sum += in[i];
  }
  return sum;
}

template <class F> F* symbol(void* module, const char* name) {
  void* p = dlsym(module, name);
  if (p == nullptr) {
    std::fprintf(stderr, "emu_bench: %s missing from %s\n", name, EMU_BENCH_MODULE);
    std::exit(2);
  }
  return reinterpret_cast<F*>(p);
}

float* device_copy(const std::vector<float>& host) {
  float* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(float));
  cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  return d;
}

// The best time of `work` as grading runs it (checks on), with the checks off, and on fibers
// only (checks on, region forms off).
struct timings {
  double on = 0;
  double off = 0;
  double fibers = 0;
};

// One row: the three timings, native, the ratios to native and what the checks cost (on/off).
void row(const char* what, const timings& t, double native) {
  std::printf("%-46s %10.1f %10.1f %10.1f", what, t.on * 1e3, t.off * 1e3, t.fibers * 1e3);
  if (native > 0) {
    std::printf(" %10.1f %8.2f %8.2f", native * 1e3, t.on / native, t.fibers / native);
  } else {
    std::printf(" %10s %8s %8s", "-", "-", "-");
  }
  std::printf(" %8.2f\n", t.on / t.off);
}

// The best wall time of `work` on `workers` workers under `policy`.
double wall_best_of(const std::function<void()>& work, unsigned workers,
                    cugrade::emu::contention_policy policy) {
  cugrade::emu::set_worker_count(workers);
  cugrade::emu::set_contention_policy(policy);
  const double best = best_of(work, k_reps, wall_seconds);
  cugrade::emu::set_contention_policy(cugrade::emu::contention_policy::measure);
  cugrade::emu::set_worker_count(1);
  return best;
}

timings timed(const std::function<void()>& work, int reps = k_reps) {
  timings t;
  if (reps > 1) {
    work(); // first touches of the buffers and the frames count in no column
  }
  cugrade::emu::set_shared_checks(false);
  t.off = best_of(work, reps);
  cugrade::emu::set_shared_checks(true);
  t.on = best_of(work, reps);
  cugrade::emu::set_region_forms(false);
  t.fibers = best_of(work, reps);
  cugrade::emu::set_region_forms(true);
  return t;
}

bool close(const std::vector<float>& a, const std::vector<float>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!(std::fabs(a[i] - b[i]) <= 1e-3f * (1.0f + std::fabs(b[i])))) {
      return false;
    }
  }
  return true;
}

} // namespace

int main(int argc, char** argv) {
  const std::string option = argc > 1 ? argv[1] : "";
  if (argc > 2 || (!option.empty() && option != "--quick")) {
    const bool help = option == "--help" || option == "-h";
    std::fprintf(help ? stdout : stderr,
                 "usage: emu_bench [--quick]\n"
                 "Times course kernels in the CPU emulator (one worker, CPU time; the\n"
                 "shared-memory checks on and off, and on fibers only, region forms off)\n"
                 "beside plain C++ doing the same work, and\n"
                 "prints the table docs/emulation.md keeps; then a histogram's global atomics\n"
                 "on every core with the contention measure on and off, and on one worker (wall\n"
                 "time). --quick leaves out the launch of 2^32 threads (about a minute). Exit\n"
                 "status 1 when an emulated result differs from the native one.\n");
    return help ? 0 : 2;
  }
  const bool quick = option == "--quick";
  void* module = dlopen(EMU_BENCH_MODULE, RTLD_NOW);
  if (module == nullptr) {
    std::fprintf(stderr, "emu_bench: %s\n", dlerror());
    return 2;
  }
  cugrade::emu::set_worker_count(1);
  auto tiled = symbol<void(const float*, const float*, float*, int)>(module, "bench_matmul_tiled");
  auto naive = symbol<void(const float*, const float*, float*, int)>(module, "bench_matmul_naive");
  auto reduce = symbol<void(const float*, long, float*)>(module, "bench_reduce");
  auto shuffle = symbol<void(const float*, long, float*)>(module, "bench_reduce_shuffle");
  auto barriers = symbol<void(int, int, int)>(module, "bench_barriers");
  auto histogram =
      symbol<void(const unsigned char*, long, unsigned int*)>(module, "bench_histogram_2d_blocks");
  auto early = symbol<void(const float*, const float*, float*, int)>(module, "bench_early_return");
  auto interleaved = symbol<void(const unsigned char*, long, unsigned int*)>(
      module, "bench_histogram_interleaved");

  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const std::size_t cells = std::size_t{k_width} * k_width;
  std::vector<float> m(cells), n(cells), p_native(cells), p_emu(cells);
  for (std::size_t i = 0; i < cells; ++i) {
    m[i] = dist(rng);
    n[i] = dist(rng);
  }
  float* d_m = device_copy(m);
  float* d_n = device_copy(n);
  float* d_p = device_copy(p_emu);

  const double native =
      best_of([&] { native_matmul(m.data(), n.data(), p_native.data(), k_width); });
  const timings emu_tiled = timed([&] { tiled(d_m, d_n, d_p, k_width); });
  cudaMemcpy(p_emu.data(), d_p, cells * sizeof(float), cudaMemcpyDeviceToHost);
  const bool tiled_ok = close(p_emu, p_native);
  const timings emu_naive = timed([&] { naive(d_m, d_n, d_p, k_width); });
  cudaMemcpy(p_emu.data(), d_p, cells * sizeof(float), cudaMemcpyDeviceToHost);
  const bool naive_ok = close(p_emu, p_native);

  const long count = 1L << 24;
  std::vector<float> values(count);
  for (float& v : values) {
    v = dist(rng);
  }
  float* d_values = device_copy(values);
  float* d_sum = device_copy({0.0f});
  float native_total = 0.0f;
  const double native_reduce = best_of([&] { native_total = native_sum(values.data(), count); });
  const timings emu_reduce = timed([&] { reduce(d_values, count, d_sum); });
  float emu_total = 0.0f;
  cudaMemcpy(&emu_total, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
  const bool reduce_ok = std::fabs(emu_total - native_total) <= 1e-2f * std::sqrt(float(count));

  // The warp step with shuffles, over the first 2^22 of the values: warps run on fibers (warp
  // primitives have no region form), each shuffle a rendezvous of the warp's 32 lanes.
  const long shuffled = 1L << 22;
  const double native_shuffled =
      best_of([&] { native_total = native_sum(values.data(), shuffled); });
  const timings emu_shuffle = timed([&] { shuffle(d_values, shuffled, d_sum); });
  cudaMemcpy(&emu_total, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
  const bool shuffle_ok = std::fabs(emu_total - native_total) <= 1e-2f * std::sqrt(float(shuffled));

  // The same number of barrier passes in blocks of 256 and of 1024 threads (scan's blocks): a
  // block's fibers take turns at each barrier, so the larger block keeps 4x the saved frames hot.
  const int each = 64;
  const timings emu_barriers = timed([&] { barriers(1024, 256, each); });
  const timings emu_wide_barriers = timed([&] { barriers(256, 1024, each); });
  const double passes = 1024.0 * 256 * each;

  // 2^22 bytes in 32 x 32 blocks: 131072 blocks, 2^27 threads, 1 in 32 with a byte.
  const long bytes = 1L << 22;
  std::vector<unsigned char> text(bytes);
  std::vector<unsigned int> native_bins(256, 0), emu_bins(256, 0);
  for (auto& c : text) {
    c = static_cast<unsigned char>(rng() % 256);
    ++native_bins[c];
  }
  unsigned char* d_text = nullptr;
  unsigned int* d_bins = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&d_text), bytes);
  cudaMemcpy(d_text, text.data(), bytes, cudaMemcpyHostToDevice);
  cudaMalloc(reinterpret_cast<void**>(&d_bins), 256 * sizeof(unsigned int));
  const timings emu_histogram = timed([&] { histogram(d_text, bytes, d_bins); }, 1);
  cudaMemcpy(emu_bins.data(), d_bins, 256 * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  const bool histogram_ok = emu_bins == native_bins;

  // Global atomics on every worker: the contention measure on, off, and one worker alone.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const auto run_interleaved = [&] { interleaved(d_text, bytes, d_bins); };
  const double atomics_measured =
      wall_best_of(run_interleaved, cores, cugrade::emu::contention_policy::measure);
  const bool measured_contended = cugrade::emu::last_launch_contended();
  const double atomics_kept =
      wall_best_of(run_interleaved, cores, cugrade::emu::contention_policy::never);
  const double atomics_alone =
      wall_best_of(run_interleaved, 1, cugrade::emu::contention_policy::measure);
  cudaMemcpy(emu_bins.data(), d_bins, 256 * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  const bool interleaved_ok = emu_bins == native_bins;

  // The 2^27-thread launch as a grading runs it: every core a worker, wall time (the clock of
  // the kernel's time limit), beside the one worker's CPU time of the table.
  cugrade::emu::set_shared_checks(true);
  cugrade::emu::set_worker_count(cores);
  const double histogram_every_core =
      best_of([&] { histogram(d_text, bytes, d_bins); }, 1, wall_seconds);
  cugrade::emu::set_worker_count(1);

  timings emu_early{};
  if (!quick) {
    emu_early = timed([&] { early(d_m, d_n, d_p, 0); }, 1);
  }

  std::printf("%-46s %10s %10s %10s %10s %8s %8s %8s\n", "benchmark (1 worker, CPU time, ms)",
              "checks on", "off", "fibers", "native", "on/nat", "fib/nat", "on/off");
  row("matmul 512x512x512, tiled 16x16", emu_tiled, native);
  row("matmul 512x512x512, naive (16x16 blocks)", emu_naive, native);
  row("reduction 2^24 floats, 256-thread blocks", emu_reduce, native_reduce);
  row("warp shuffles, 2^22 floats (5 a warp)", emu_shuffle, native_shuffled);
  row("1024 blocks x 256 threads x 64 barriers", emu_barriers, 0);
  row("256 blocks x 1024 threads x 64 barriers", emu_wide_barriers, 0);
  row("histogram 2^27 threads, 1 in 32 with work", emu_histogram, 0);
  if (!quick) {
    row("2^32 threads that all return at once", emu_early, 0);
  }
  std::printf("cost of one thread passing one barrier, checks on: %.1f ns (256-thread blocks), "
              "%.1f ns (1024-thread blocks); on fibers: %.1f ns, %.1f ns\n",
              emu_barriers.on / passes * 1e9, emu_wide_barriers.on / passes * 1e9,
              emu_barriers.fibers / passes * 1e9, emu_wide_barriers.fibers / passes * 1e9);
  std::printf("the 2^27-thread launch as a grading runs it (%u workers, wall time, checks on): "
              "%.1f ms\n",
              cores, histogram_every_core * 1e3);
  std::printf("\n%-46s %10s %10s %10s\n",
              ("global atomics (" + std::to_string(cores) + " workers, wall time, ms)").c_str(),
              "measured", "kept", "1 worker");
  std::printf("%-46s %10.1f %10.1f %10.1f   (measured: %s)\n",
              "histogram 2^22 bytes, interleaved, global bins", atomics_measured * 1e3,
              atomics_kept * 1e3, atomics_alone * 1e3,
              measured_contended ? "went on on one worker" : "kept every worker");
  if (!tiled_ok || !naive_ok || !reduce_ok || !shuffle_ok || !histogram_ok || !interleaved_ok) {
    std::printf("RESULTS DIFFER: tiled %s, naive %s, reduction %s, shuffles %s, histogram %s, "
                "interleaved %s\n",
                tiled_ok ? "ok" : "WRONG", naive_ok ? "ok" : "WRONG", reduce_ok ? "ok" : "WRONG",
                shuffle_ok ? "ok" : "WRONG", histogram_ok ? "ok" : "WRONG",
                interleaved_ok ? "ok" : "WRONG");
    return 1;
  }
  std::printf("emulated/native: %.2f\n", emu_tiled.on / native);
  return 0;
}
