#pragma once
/// \file
/// Device memory: every cudaMalloc is its own mapping, laid out so that stray accesses fault.
///
///   [front guard, PROT_NONE][canary slack | buffer bytes][rear guard, PROT_NONE]
///
/// The buffer's END touches the rear guard, so reading or writing even one byte past it raises
/// SIGSEGV (caught by fault_handler). The bytes in front of the buffer up to the page boundary
/// hold a canary, checked at every synchronisation, to catch small underflows; larger ones hit
/// the front guard. Freed buffers stay mapped PROT_NONE for a while so use-after-free faults too.
///
/// Host guard: while the launcher's own host code runs (set_host_guard), every live buffer's
/// pages are PROT_NONE too, so host code that dereferences a device pointer faults, as it does
/// on a GPU (where the process dies with SIGSEGV). The runtime's own copies, sets and launches
/// open the buffers for their duration (access_scope).

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "cugrade_emu/api.h"

namespace cugrade::emu::detail {

/// Where a faulting address lies relative to the device buffers.
struct fault_place {
  enum class kind { none, past_end, before_start, freed, inside } where = kind::none;
  std::size_t buffer_size = 0;
  std::size_t distance = 0; ///< bytes past the end (0: the first byte after it) or before start
  std::size_t offset = 0;   ///< for freed buffers and inside a live one: offset into the buffer
  std::uintptr_t start = 0; ///< the buffer's first byte, as cudaMalloc returned it
};

/// An underflow found by a canary check.
struct canary_damage {
  std::size_t buffer_size = 0;
  std::size_t bytes_before_start = 0; ///< how far before the buffer the lowest damaged byte is
  std::uintptr_t start = 0;           ///< the buffer's first byte, as cudaMalloc returned it
};

class device_memory {
public:
  static device_memory& instance();

  /// `host_visible`: managed memory, which host code may dereference on a GPU too, so the host
  /// guard leaves it open.
  cudaError_t allocate(void** out, std::size_t size, bool host_visible = false);
  cudaError_t release(void* p);
  /// Whether [p, p + n) lies inside one live device buffer.
  [[nodiscard]] bool contains(const void* p, std::size_t n) const;
  /// The live device buffer holding [p, p + n) as [begin, end); false when none does.
  [[nodiscard]] bool buffer_around(const void* p, std::size_t n, std::uintptr_t& begin,
                                   std::uintptr_t& end) const;
  /// Whether p points into a live device buffer.
  [[nodiscard]] bool is_device(const void* p) const { return contains(p, 0); }
  /// Checks the canaries in front of every live buffer, repairs them, and reports the damage.
  std::vector<canary_damage> check_canaries();
  /// Unmaps everything (cudaDeviceReset, reset_device).
  void release_all();
  [[nodiscard]] std::size_t bytes_in_use() const;

  /// Async-signal-safe: classifies an address against live and recently freed buffers.
  static fault_place locate(const void* addr);

  /// Turns the host guard on (every live buffer inaccessible, and each new one as it is made)
  /// or off (all accessible again).
  void set_host_guard(bool on);

  /// The runtime's own access to device memory (a copy, a set, a launch, the canary check):
  /// while one is open, the host guard is lifted. Scopes nest.
  class access_scope {
  public:
    access_scope() { instance().open(); }
    ~access_scope() { instance().close(); }
    access_scope(const access_scope&) = delete;
    access_scope& operator=(const access_scope&) = delete;
  };

private:
  struct record {
    std::byte* map_base = nullptr;
    std::size_t map_len = 0;
    std::size_t front = 0;
    std::uintptr_t user = 0;
    std::size_t size = 0;
    int slot = -1;
    bool host_visible = false;
  };

  [[nodiscard]] const record* find(const void* p) const;
  void quarantine(const record& r);
  void unmap(const record& r);
  void open();
  void close();
  /// The pages that hold a buffer's bytes (and the canary before them), PROT_NONE or not.
  static void set_access(const record& r, bool accessible);
  void set_access_all(bool accessible);

  mutable std::mutex m_mutex;
  std::map<std::uintptr_t, record> m_live; ///< by buffer start
  std::vector<record> m_freed;             ///< oldest first
  std::size_t m_bytes = 0;
  bool m_host_guard = false;
  int m_open_scopes = 0;
};

} // namespace cugrade::emu::detail
