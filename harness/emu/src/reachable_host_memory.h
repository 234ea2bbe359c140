#pragma once
/// \file
/// Host memory a kernel may reach on a GPU: pinned memory (cudaMallocHost, cudaHostAlloc), which
/// a GPU maps for its kernels, and what device code itself allocated (`malloc` in a kernel, from
/// the device heap). Everything else the host allocated (malloc, new, its stack) is out of a
/// kernel's reach (memory_reach.cpp). Looked up only when a checked block's access leaves the
/// memory it reached lately, so one lock and an ordered map are enough.

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace cugrade::emu::detail {

class reachable_host_memory {
public:
  static reachable_host_memory& instance();

  void add(const void* p, std::size_t bytes);
  /// Forgets the range that starts at p (nothing when none does).
  void remove(const void* p);
  /// The range holding `at` as [begin, end); false when none does.
  bool find(std::uintptr_t at, std::uintptr_t& begin, std::uintptr_t& end) const;

private:
  mutable std::mutex m_mutex;
  std::map<std::uintptr_t, std::uintptr_t> m_ranges; ///< begin -> end
};

} // namespace cugrade::emu::detail
