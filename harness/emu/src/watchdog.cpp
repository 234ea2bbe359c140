#include "harness/emu/src/watchdog.h"

#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "harness/emu/src/fault_handler.h"

namespace cugrade::emu::detail {
namespace {

using clock = std::chrono::steady_clock;

constexpr int k_counters = 4096;

struct alignas(64) padded_counter {
  std::atomic<std::uint64_t> value{0};
};
padded_counter g_counters[k_counters];
std::atomic<int> g_counter_count{0};

struct watch_state {
  std::mutex mutex;
  std::condition_variable wake;
  double limit = 0;             ///< seconds; 0: not watching
  std::uint64_t generation = 0; ///< bumped by every set_watchdog_limit
  bool thread_started = false;
  std::atomic<std::uint64_t> launches{0}; ///< launches begun
  std::atomic<bool> in_launch{false};
  std::atomic<std::uint64_t> launch_threads{0};
};

watch_state* g_state = nullptr;

// Leaked: the thread may outlive static destruction. A forked child (where the thread does not
// exist, and the mutex may be held by it) starts over with a fresh state.
watch_state& state() {
  static const bool once = [] {
    g_state = new watch_state();
    pthread_atfork(nullptr, nullptr, [] { g_state = new watch_state(); });
    return true;
  }();
  (void)once;
  return *g_state;
}

std::uint64_t progress() {
  std::uint64_t sum = 0;
  const int n = std::min(g_counter_count.load(), k_counters);
  for (int i = 0; i < n; ++i) {
    sum += g_counters[i].value.load(std::memory_order_relaxed);
  }
  return sum;
}

double seconds(clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// What one watch (one armed limit) has seen so far.
struct watch {
  double limit = 0;
  double charged = 0;
  clock::time_point last = clock::now();
  std::uint64_t seen_progress = progress();
  std::uint64_t seen_launch = 0;
  clock::time_point launch_start{};
  double launch_cap = 0;

  // One tick: true when the time is up.
  bool expired(watch_state& s) {
    const auto now = clock::now();
    const double dt = seconds(now - last);
    last = now;
    const std::uint64_t done = progress();
    const bool moved = done != seen_progress;
    seen_progress = done;
    if (!s.in_launch.load()) {
      charged += dt;
      return charged >= limit;
    }
    const std::uint64_t launch = s.launches.load();
    if (launch != seen_launch) {
      seen_launch = launch;
      launch_start =
          now - std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(dt));
      launch_cap =
          limit + static_cast<double>(s.launch_threads.load()) * watchdog_seconds_per_thread;
    }
    if (!moved) {
      charged += dt;
    }
    return charged >= limit || seconds(now - launch_start) > launch_cap;
  }
};

void watch_loop(watch_state* watched) {
  watch_state& s = *watched;
  std::unique_lock lock(s.mutex);
  for (;;) {
    s.wake.wait(lock, [&] { return s.limit > 0; });
    watch w;
    w.limit = s.limit;
    const std::uint64_t generation = s.generation;
    while (s.generation == generation) {
      s.wake.wait_for(lock, std::chrono::milliseconds(100));
      if (s.generation != generation || !w.expired(s)) {
        continue;
      }
      lock.unlock();
      stop_for_time_limit(s.in_launch.load());
      lock.lock();
    }
  }
}

} // namespace

void set_watchdog_limit(double limit_seconds) {
  watch_state& s = state();
  const std::lock_guard lock(s.mutex);
  s.limit = limit_seconds > 0 ? limit_seconds : 0;
  ++s.generation;
  if (!s.thread_started && s.limit > 0) {
    s.thread_started = true;
    std::thread(watch_loop, &s).detach();
  }
  s.wake.notify_all();
}

void watchdog_launch_begins(std::uint64_t threads) {
  watch_state& s = state();
  s.launch_threads.store(threads);
  s.launches.fetch_add(1);
  s.in_launch.store(true);
}

void watchdog_launch_ends() {
  state().in_launch.store(false);
}

std::atomic<std::uint64_t>* watchdog_progress_counter() {
  const int i = g_counter_count.fetch_add(1);
  return &g_counters[i < k_counters ? i : 0].value;
}

} // namespace cugrade::emu::detail
