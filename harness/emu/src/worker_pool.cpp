#include "harness/emu/src/worker_pool.h"

#include <pthread.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

#include "harness/emu/src/block_runner.h"
#include "harness/emu/src/fault_handler.h"

namespace cugrade::emu::detail {
namespace {

unsigned default_size() {
  if (const char* env = std::getenv("CUGRADE_EMU_WORKERS"); env != nullptr && *env != '\0') {
    const long n = std::strtol(env, nullptr, 10);
    if (n > 0 && n <= 1024) {
      return static_cast<unsigned>(n);
    }
  }
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : cores;
}

block_runner& this_threads_runner() {
  thread_local std::unique_ptr<block_runner> runner;
  if (!runner) {
    prepare_thread_for_faults();
    register_kernel_thread();
    runner = std::make_unique<block_runner>();
  }
  return *runner;
}

} // namespace

worker_pool& worker_pool::instance() {
  // Leaked on purpose: its threads may be stuck in a kernel when the process exits.
  static auto* pool = [] {
    auto* p = new worker_pool();
    pthread_atfork(nullptr, nullptr, [] { worker_pool::instance().after_fork_in_child(); });
    return p;
  }();
  return *pool;
}

worker_pool::worker_pool()
    : m_size(default_size()), m_shared(new shared_part()),
      m_threads(new std::vector<std::thread>()) {}

void worker_pool::set_size(unsigned size) {
  const unsigned wanted = size == 0 ? default_size() : size;
  if (wanted == m_size) {
    return;
  }
  stop_threads();
  m_size = wanted;
}

void worker_pool::stop_threads() {
  {
    const std::lock_guard lock(m_shared->mutex);
    m_shared->stop = true;
  }
  m_shared->wake.notify_all();
  for (auto& t : *m_threads) {
    t.join();
  }
  m_threads->clear();
  // Joined threads no longer touch the old part.
  delete m_shared;
  m_shared = new shared_part();
}

void worker_pool::after_fork_in_child() {
  // The parent's workers do not exist here; their objects are abandoned, not joined. The
  // forking thread goes on here and may run blocks (its runner already exists).
  forget_kernel_threads();
  register_kernel_thread();
  m_shared = new shared_part();
  m_threads = new std::vector<std::thread>();
}

void worker_pool::ensure_threads() {
  while (m_threads->size() + 1 < m_size) {
    m_threads->emplace_back(&worker_pool::worker_main, m_shared);
  }
}

void worker_pool::run(launch_job& job) {
  ensure_threads();
  // Blocks are claimed a chunk at a time (one atomic per chunk, not per block): chunks of about
  // 16K threads, small enough that every worker gets several.
  const std::uint64_t workers = m_threads->size() + 1;
  const std::uint64_t by_size = std::max<std::uint64_t>(1, 16384 / job.threads_per_block);
  const std::uint64_t by_share = std::max<std::uint64_t>(1, job.total_blocks / (workers * 8));
  job.chunk = std::min(by_size, by_share);
  if (m_threads->empty() || job.total_blocks == 1) {
    work(job);
    return;
  }
  job.lead = &this_threads_runner();
  {
    const std::lock_guard lock(m_shared->mutex);
    m_shared->job = &job;
    ++m_shared->generation;
    m_shared->busy = static_cast<unsigned>(m_threads->size());
  }
  m_shared->wake.notify_all();
  work(job);
  std::unique_lock lock(m_shared->mutex);
  m_shared->done.wait(lock, [this] { return m_shared->busy == 0; });
  m_shared->job = nullptr;
}

void worker_pool::worker_main(shared_part* shared) {
  unsigned long long seen = 0;
  std::unique_lock lock(shared->mutex);
  for (;;) {
    shared->wake.wait(lock, [&] { return shared->stop || shared->generation != seen; });
    if (shared->stop) {
      return;
    }
    seen = shared->generation;
    launch_job* job = shared->job;
    lock.unlock();
    work(*job);
    lock.lock();
    if (--shared->busy == 0) {
      shared->done.notify_all();
    }
  }
}

void worker_pool::work(launch_job& job) {
  this_threads_runner().run_blocks(job);
}

} // namespace cugrade::emu::detail
