#pragma once
/// \file
/// Where gradings may run: `jobs` CPU tokens for fetching and building (and, in emulation, for
/// the whole grading, since emulated kernels run on the CPU too), and on a GPU machine a few
/// slots per GPU for the runs. A grading holds a CPU token until its build is done, then waits
/// for the least busy GPU. Fair timing between gradings sharing a GPU is the per-GPU lock's job
/// inside the grading code, not this scheduler's.

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cugrade::batch {

class slots {
public:
  /// `gpus` holds CUDA_VISIBLE_DEVICES values (e.g. "0", "1"); empty for emulation.
  slots(std::size_t jobs, std::vector<std::string> gpus, std::size_t per_gpu);

  void take_cpu();
  void give_cpu();
  /// Blocks until a GPU in service has a free slot; returns its index in `gpus`. When no GPU is
  /// in service any more, any GPU's slot (the batch is stopping: what runs there is not kept).
  [[nodiscard]] std::size_t take_gpu();
  void give_gpu(std::size_t gpu);
  /// Takes GPU `gpu` out of service (it stopped working): no grading is given it again while
  /// another GPU is in service. Returns how many GPUs are still in service.
  std::size_t retire_gpu(std::size_t gpu);
  [[nodiscard]] bool in_service(std::size_t gpu) const;
  /// How many GPUs are in service.
  [[nodiscard]] std::size_t gpus_in_service() const;

  [[nodiscard]] const std::vector<std::string>& gpus() const { return m_gpus; }
  /// Gradings that may be in flight at once (the number of worker threads to start).
  [[nodiscard]] std::size_t concurrency() const;
  /// Seconds each GPU had at least one grading on it so far.
  [[nodiscard]] std::vector<double> gpu_busy_seconds() const;

private:
  [[nodiscard]] std::size_t in_service_locked() const; ///< with m_mutex held
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::size_t m_free_cpu;
  std::vector<std::string> m_gpus;
  std::size_t m_per_gpu;
  std::vector<std::size_t> m_on_gpu;
  std::vector<bool> m_retired;
  std::vector<double> m_busy_seconds;
  std::vector<double> m_busy_since;
};

/// The GPUs to use: `requested` when given, else CUDA_VISIBLE_DEVICES's entries, else the
/// indexes nvidia-smi lists (it does not initialise CUDA in this process), else one GPU "0".
[[nodiscard]] std::vector<std::string> visible_gpus(const std::vector<std::string>& requested);

} // namespace cugrade::batch
