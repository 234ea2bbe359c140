#pragma once
/// \file
/// Where kernel code finds "who am I": one plain thread-local record per OS thread, updated by the
/// scheduler each time it switches to another emulated thread (fiber). A fiber never moves to
/// another OS thread, so `threadIdx.x` is a single %fs-relative load.

#include "cugrade_emu/types.h"

namespace cugrade::emu::detail {

/// The emulated thread running on this OS thread right now.
struct thread_context {
  ::uint3 thread_idx;
  ::uint3 block_idx;
  ::uint3 block_dim;
  ::uint3 grid_dim;
  void* fiber;             ///< the running fiber; null outside kernels
  void* runner;            ///< this OS thread's block runner; null outside kernels
  const char* kernel_name; ///< as written at the launch
  /// The running block's shared memory: [shared_begin, shared_begin + shared_bytes). Accesses
  /// are reported to the hazard and bounds detector only when check_shared is set (a checked
  /// block), and only for addresses in that range.
  unsigned long shared_begin;
  unsigned long shared_bytes;
  bool check_shared;
  /// Global atomics left until the next one is timed (atomic_note in shared_access.h); set
  /// by the block runner at each launch.
  unsigned atomic_countdown;
  /// The running thread's last read-modify-write of a device buffer in a checked block is not
  /// stored yet (warp_update.cpp): stored at its next access, atomic or switch.
  bool update_pending;
  /// atomicCAS calls in a row that did not swap (a spin on a lock; atomics.h).
  unsigned cas_failures;
  /// The running block's serial number on this worker, and the __shared__ declarations it
  /// reached lately: each thread reaching one finds its storage here without a call.
  unsigned long block_serial;
  struct shared_cache_entry {
    const void* key;
    void* storage;
    unsigned long block_serial;
  } shared_cache[8];
  /// Memory outside shared memory that the running block's threads reached lately and may
  /// reach (a device buffer, a chunk of fiber stacks, a module's segment, pinned host memory):
  /// [begin, begin + bytes), two ranges, so that a kernel alternating between two buffers asks
  /// once for each. A checked block's access elsewhere asks the block runner (note_reach), which
  /// fails it when the memory is the host's, and counts it in a profiled launch, whose ranges
  /// stay empty. Emptied at every launch.
  struct reach_range {
    unsigned long begin;
    unsigned long bytes;
  } reach[2];
};

/// Where a declaration's storage is cached in the thread context.
inline unsigned shared_cache_line(const void* key) {
  return static_cast<unsigned>(reinterpret_cast<unsigned long>(key) >> 3) % 8;
}

// `__thread` (not `thread_local`): no TLS wrapper call; initial-exec keeps access a single load
// even from a dlopen'ed submission, because the variable lives in libcugrade_emu.so, which the
// host program links at start-up.
#pragma GCC visibility push(default)
extern __thread thread_context t_ctx __attribute__((tls_model("initial-exec")));
#pragma GCC visibility pop

/// Whether `address` lies in the running block's shared memory (one unsigned comparison: an
/// address below the block's shared memory wraps around to a large offset).
[[gnu::always_inline, gnu::artificial]] inline bool in_block_shared(const volatile void* address) {
  return reinterpret_cast<unsigned long>(address) - t_ctx.shared_begin < t_ctx.shared_bytes;
}

/// Whether `address` lies in the memory the running block reached lately outside shared memory
/// (an unsigned comparison per range, as in_block_shared).
[[gnu::always_inline, gnu::artificial]] inline bool in_reached_memory(const volatile void* address) {
  const auto at = reinterpret_cast<unsigned long>(address);
  return at - t_ctx.reach[0].begin < t_ctx.reach[0].bytes ||
         at - t_ctx.reach[1].begin < t_ctx.reach[1].bytes;
}

} // namespace cugrade::emu::detail

#define threadIdx (static_cast<const ::uint3&>(::cugrade::emu::detail::t_ctx.thread_idx))
#define blockIdx (static_cast<const ::uint3&>(::cugrade::emu::detail::t_ctx.block_idx))
#define blockDim (static_cast<const ::uint3&>(::cugrade::emu::detail::t_ctx.block_dim))
#define gridDim (static_cast<const ::uint3&>(::cugrade::emu::detail::t_ctx.grid_dim))
