// emu_bench: how fast the emulator runs course kernels, next to plain C++ doing the same work.
// All emulated timings use ONE worker thread (the calling thread runs every block), and times are
// the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), best of several runs, so a busy machine
// disturbs them less. The last line, `emulated/native: R`, is
//   R = emulated tiled 512x512x512 matmul (16x16 tiles) / native triple loop over the same data.
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
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

double best_of(const std::function<void()>& work) {
  double best = 1e30;
  for (int r = 0; r < k_reps; ++r) {
    const double start = thread_seconds();
    work();
    best = std::min(best, thread_seconds() - start);
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

void row(const char* what, double emulated, double native) {
  if (native > 0) {
    std::printf("%-44s %12.1f %12.1f %9.2f\n", what, emulated * 1e3, native * 1e3,
                emulated / native);
  } else {
    std::printf("%-44s %12.1f %12s %9s\n", what, emulated * 1e3, "-", "-");
  }
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

int main() {
  void* module = dlopen(EMU_BENCH_MODULE, RTLD_NOW);
  if (module == nullptr) {
    std::fprintf(stderr, "emu_bench: %s\n", dlerror());
    return 2;
  }
  cugrade::emu::set_worker_count(1);
  auto tiled = symbol<void(const float*, const float*, float*, int)>(module, "bench_matmul_tiled");
  auto naive = symbol<void(const float*, const float*, float*, int)>(module, "bench_matmul_naive");
  auto reduce = symbol<void(const float*, long, float*)>(module, "bench_reduce");
  auto barriers = symbol<void(int, int, int)>(module, "bench_barriers");

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
  const double emu_tiled = best_of([&] { tiled(d_m, d_n, d_p, k_width); });
  cudaMemcpy(p_emu.data(), d_p, cells * sizeof(float), cudaMemcpyDeviceToHost);
  const bool tiled_ok = close(p_emu, p_native);
  const double emu_naive = best_of([&] { naive(d_m, d_n, d_p, k_width); });
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
  const double emu_reduce = best_of([&] { reduce(d_values, count, d_sum); });
  float emu_total = 0.0f;
  cudaMemcpy(&emu_total, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
  const bool reduce_ok = std::fabs(emu_total - native_total) <= 1e-2f * std::sqrt(float(count));

  // The same number of barrier passes in blocks of 256 and of 1024 threads (scan's blocks): a
  // block's fibers take turns at each barrier, so the larger block keeps 4x the saved frames hot.
  const int each = 64;
  const double emu_barriers = best_of([&] { barriers(1024, 256, each); });
  const double emu_wide_barriers = best_of([&] { barriers(256, 1024, each); });
  const double passes = 1024.0 * 256 * each;

  std::printf("%-44s %12s %12s %9s\n", "benchmark (1 worker, best of 3, CPU time)", "emulated ms",
              "native ms", "ratio");
  row("matmul 512x512x512, tiled 16x16", emu_tiled, native);
  row("matmul 512x512x512, naive (16x16 blocks)", emu_naive, native);
  row("reduction 2^24 floats, 256-thread blocks", emu_reduce, native_reduce);
  row("1024 blocks x 256 threads x 64 barriers", emu_barriers, 0);
  row("256 blocks x 1024 threads x 64 barriers", emu_wide_barriers, 0);
  std::printf("cost of one thread passing one barrier: %.1f ns (256-thread blocks), %.1f ns "
              "(1024-thread blocks)\n",
              emu_barriers / passes * 1e9, emu_wide_barriers / passes * 1e9);
  if (!tiled_ok || !naive_ok || !reduce_ok) {
    std::printf("RESULTS DIFFER: tiled %s, naive %s, reduction %s\n", tiled_ok ? "ok" : "WRONG",
                naive_ok ? "ok" : "WRONG", reduce_ok ? "ok" : "WRONG");
    return 1;
  }
  std::printf("emulated/native: %.2f\n", emu_tiled / native);
  return 0;
}
