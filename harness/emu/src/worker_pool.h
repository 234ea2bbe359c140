#pragma once
/// \file
/// The CPU threads that run blocks. The launching thread works too, so a pool of size 1 runs
/// everything on the caller (deterministic, and what the speed benchmark measures). Blocks are
/// handed out one at a time from an atomic counter; each worker keeps its own block runner and
/// fiber stacks.

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "harness/emu/src/launch_job.h"

namespace cugrade::emu::detail {

class worker_pool {
public:
  static worker_pool& instance();

  /// Participants per launch, the caller included (0: one per core). Takes effect at the next
  /// launch; never call it while a launch runs.
  void set_size(unsigned size);
  /// Runs every block of the job and returns when all have finished or the job was aborted.
  void run(launch_job& job);

private:
  // Everything the threads share lives behind a pointer: a forked child (where the threads do not
  // exist) simply starts over with a fresh one.
  struct shared_part {
    std::mutex mutex;
    std::condition_variable wake;
    std::condition_variable done;
    launch_job* job = nullptr;
    unsigned long long generation = 0;
    unsigned busy = 0;
    bool stop = false;
  };

  worker_pool();
  void ensure_threads();
  void stop_threads();
  void after_fork_in_child();
  static void worker_main(shared_part* shared);
  static void work(launch_job& job);

  unsigned m_size = 0;
  shared_part* m_shared = nullptr;
  std::vector<std::thread>* m_threads = nullptr;
};

} // namespace cugrade::emu::detail
