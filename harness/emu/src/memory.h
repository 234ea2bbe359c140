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
/// on a GPU (where the process dies with SIGSEGV). A launch opens every buffer for its duration
/// (access_scope); a copy or a set opens only the buffers it touches (buffer_scope), so a launcher
/// that copies a pitched matrix row by row pays two mprotect calls a row, not two per live buffer.
/// The canary check reads a closed buffer's canary only when something that could have written it
/// ran since the last check: a kernel, a symbol copy, or host code with the guard off.

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
  /// Checks the canaries in front of the live buffers, repairs them, and reports the damage. With
  /// the host guard on, closed buffers are checked only when a full access_scope was opened since
  /// the last check (a kernel or a symbol copy may have written them); the open ones always.
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

  /// The runtime's access to the buffers holding `a` and `b` (a copy's two sides, a set's one):
  /// only those are opened, and only if they are device buffers. Scopes nest.
  class buffer_scope {
  public:
    explicit buffer_scope(const void* a, const void* b = nullptr)
        : m_a(instance().open_buffer(a)), m_b(instance().open_buffer(b)) {}
    ~buffer_scope() {
      instance().close_buffer(m_b);
      instance().close_buffer(m_a);
    }
    buffer_scope(const buffer_scope&) = delete;
    buffer_scope& operator=(const buffer_scope&) = delete;

  private:
    std::uintptr_t m_a;
    std::uintptr_t m_b;
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
    int opens = 0; ///< buffer_scopes open on it
  };

  [[nodiscard]] const record* find(const void* p) const;
  [[nodiscard]] record* find(const void* p);
  /// Whether host code cannot reach the buffer now (the guard is on and nothing opened it).
  [[nodiscard]] bool closed(const record& r) const;
  void quarantine(const record& r);
  void unmap(const record& r);
  void open();
  void close();
  /// The key of the buffer holding p (0: none), opened for a buffer_scope.
  std::uintptr_t open_buffer(const void* p);
  void close_buffer(std::uintptr_t key);
  /// The pages that hold a buffer's bytes (and the canary before them), PROT_NONE or not.
  static void set_access(const record& r, bool accessible);
  /// Opens every guarded buffer, or closes those no buffer_scope holds open.
  void set_access_all(bool accessible);

  mutable std::mutex m_mutex;
  std::map<std::uintptr_t, record> m_live; ///< by buffer start
  std::vector<record> m_freed;             ///< oldest first
  std::size_t m_bytes = 0;
  bool m_host_guard = false;
  int m_open_scopes = 0;
  /// A full access_scope was opened since the last canary check: closed canaries may be damaged.
  bool m_canaries_exposed = true;
};

} // namespace cugrade::emu::detail
