#pragma once
/// \file
/// What the rewriter wraps around every subscript in device code (see
/// detail/access_rewrite.cpp): `Mds[ty][k]` becomes `shared_read(Mds[ty][k], __cugrade_chk, 41)`,
/// the same lvalue. In a block the emulator checks, an access to the block's shared memory is
/// reported to the hazard and bounds detector; anything else costs a test of a flag that is
/// constant for the whole function (`__cugrade_chk`, read once at its start), or, where the
/// rewriter cannot use that local (lambdas, local classes), of the thread context. The wrappers
/// are `artificial`: their instructions carry the student's line, so a fault in one (a guard
/// page after a global buffer) names the line of the access.
///
/// A `volatile` element of shared memory is warp-synchronous code's (the "unrolled last warp"
/// of a reduction): in every block, checked or not, the lanes of the warp take each such access
/// together (warp_step), as a warp running its lanes in step does.

#include <cstddef>
#include <type_traits>

#include "cugrade_emu/context.h"

namespace cugrade::emu::detail {

/// How a thread touches shared memory.
enum class shared_use : unsigned { read = 0, write = 1, update = 2, atomic = 3 };

#pragma GCC visibility push(default)
/// Reports one access by the running thread to the running block's shared memory (only called
/// for addresses inside it). A write is judged once the store is done (a store of the value the
/// memory already holds changes nothing, as racecheck sees it). May end the block: an access
/// outside every __shared__ array is out_of_bounds.
void note_shared(const volatile void* address, std::size_t bytes, shared_use use, int line);
/// An access by the running thread of a checked block outside shared memory and outside the
/// memory it reached lately (in_reached_memory): memory a kernel may reach (a device buffer, its
/// own stack, a module's __device__ or __constant__ variables, pinned host memory, its own
/// device-side malloc) becomes that memory; host memory (malloc, new, the host's stack) ends the
/// launch with out_of_bounds, as a GPU faults on it. In a profiled launch every such access
/// comes here and is counted (warp_profile.h) when it is in a device buffer.
void note_reach(const volatile void* address, std::size_t bytes, shared_use use, int line);
/// Waits until every other lane of the running thread's warp has reached a volatile access to
/// shared memory too, or waits elsewhere (a barrier, a warp rendezvous) or has exited: the lanes
/// then make their accesses, each before any of them reaches its next one.
void warp_step();
/// Checks that an access of `bytes` at `address` by the running thread is aligned to `align` as
/// it would be on a GPU, where a device buffer starts at a multiple of 256 bytes; ends the launch
/// with misaligned_address when it is not. Does nothing outside a kernel.
void check_placement(const volatile void* address, std::size_t bytes, std::size_t align, int line);
/// An atomic whose time was taken (atomic_note): `started` is the cycle count before it. Weighs
/// whether the launch's global atomics are contended between workers (atomic_contention.h).
void atomic_timed(const volatile void* address, unsigned long long started);
/// A read-modify-write by the running thread of `bytes` at `address` in a checked block: in a
/// device buffer, or in the shared memory of a block of one warp, read together with the thread's
/// warp (a GPU's lost updates, src/warp_update.cpp), and the address of the thread's own copy to
/// modify; elsewhere `address` itself.
void* warp_update(void* address, std::size_t bytes);
/// Stores the running thread's copy from warp_update (t_ctx.update_pending).
void flush_update();
#pragma GCC visibility pop

/// Before an access in a checked block: the thread's pending read-modify-write is stored first.
[[gnu::always_inline, gnu::artificial]] inline void settle_update() {
  if (__builtin_expect(t_ctx.update_pending, false)) {
    flush_update();
  }
}

/// Whether the running block is one warp at most: its shared memory's updates are taken with the
/// warp too (in a larger block the hazard detector reports them as a race between warps).
[[gnu::always_inline, gnu::artificial]] inline bool block_is_one_warp() {
  return t_ctx.block_dim.x * t_ctx.block_dim.y * t_ctx.block_dim.z <= 32;
}

/// What an access hands back: the element itself, except for a read-modify-write in a checked
/// block of global memory, or of shared memory in a block of one warp (warp_update).
template <shared_use use, class T>
[[gnu::always_inline, gnu::artificial]] inline T& checked_element(T& element) {
  if constexpr (use == shared_use::update && std::is_arithmetic_v<T> && sizeof(T) <= 8 &&
                !std::is_const_v<T>) {
    if (!in_block_shared(__builtin_addressof(element)) || block_is_one_warp()) {
      return *static_cast<T*>(warp_update(__builtin_addressof(element), sizeof(T)));
    }
  }
  return element;
}

/// Whether the running block is checked: read once per function by the rewritten code.
[[gnu::always_inline, gnu::artificial]] inline bool checking_shared() {
  return t_ctx.check_shared;
}

/// A checked access outside the block's shared memory: one test inline, the rest in note_reach.
[[gnu::always_inline, gnu::artificial]] inline void
note_outside_shared(const volatile void* address, std::size_t bytes, shared_use use, int line) {
  if (!in_reached_memory(address)) [[unlikely]] {
    note_reach(address, bytes, use, line);
  }
}

template <class T>
[[gnu::always_inline, gnu::artificial]] inline void note_if_shared(T& element, shared_use use,
                                                                   int line) {
  if constexpr (!std::is_array_v<T>) { // a row of a 2-D array is an address, not an access
    if (in_block_shared(__builtin_addressof(element))) {
      note_shared(__builtin_addressof(element), sizeof(T), use, line);
    } else {
      note_outside_shared(__builtin_addressof(element), sizeof(T), use, line);
    }
  }
}

/// Whether every access of T is checked for alignment, not only those of checked blocks.
template <class T>
inline constexpr bool always_check_alignment = alignof(T) >= 8 && !std::is_array_v<T>;

/// A GPU loads and stores a type only at an address aligned to it (a float4 at a multiple of 16):
/// `reinterpret_cast<const float4*>(in + 1)[i]` faults there and is reported here. Types aligned
/// to 8 or more (vectors, doubles) are checked in every block, by their offset into their device
/// buffer. Narrower ones are checked in checked blocks (`checked_block`), and only where their
/// address here is misaligned too (a test inline, a call only then): checking every float access
/// of every kernel against its buffer would cost each a call. Used by the subscript wrappers below
/// and by loads the rewriter does not wrap (`__ldg`).
template <class T>
[[gnu::always_inline, gnu::artificial]] inline void check_alignment(const volatile T& element,
                                                                    bool checked_block, int line) {
  if constexpr (always_check_alignment<T>) {
    check_placement(__builtin_addressof(element), sizeof(T), alignof(T), line);
  } else if constexpr (alignof(T) > 1 && !std::is_array_v<T>) {
    const auto at = reinterpret_cast<unsigned long>(__builtin_addressof(element));
    if (__builtin_expect(checked_block, false) && (at & (alignof(T) - 1)) != 0) [[unlikely]] {
      check_placement(__builtin_addressof(element), sizeof(T), alignof(T), line);
    }
  }
}

/// A volatile access to the block's shared memory is a step of its warp.
[[gnu::always_inline, gnu::artificial]] inline void step_if_shared(const volatile void* address) {
  if (in_block_shared(address)) {
    warp_step();
  }
}

#define CUGRADE_EMU_ACCESS(name, use)                                                              \
  template <class T>                                                                               \
  [[gnu::always_inline, gnu::artificial]] inline T& name(T& element, bool check, int line) {       \
    check_alignment(element, check, line);                                                         \
    if (__builtin_expect(check, false)) {                                                          \
      settle_update();                                                                             \
      note_if_shared(element, use, line);                                                          \
      return checked_element<use>(element);                                                        \
    }                                                                                              \
    return element;                                                                                \
  }                                                                                                \
  /* Warp-synchronous code: the step first, so that a write is judged after its store. */          \
  template <class T>                                                                               \
  [[gnu::always_inline, gnu::artificial]] inline volatile T& name(volatile T& element, bool check, \
                                                                  int line) {                      \
    if constexpr (!std::is_array_v<T>) {                                                           \
      step_if_shared(__builtin_addressof(element));                                                \
    }                                                                                              \
    check_alignment(element, check, line);                                                         \
    if (__builtin_expect(check, false)) {                                                          \
      note_if_shared(element, use, line);                                                          \
    }                                                                                              \
    return element;                                                                                \
  }                                                                                                \
  /* Where the function's flag is out of reach (lambdas): the thread context decides. */           \
  template <class T>                                                                               \
  [[gnu::always_inline, gnu::artificial]] inline T& name(T& element, int line) {                   \
    return name(element, checking_shared(), line);                                                 \
  }                                                                                                \
  /* A class whose operator[] returns a value (a proxy), not a reference: nothing to check. */     \
  template <class T>                                                                               \
  requires(!std::is_lvalue_reference_v<T>) inline T name(T&& value, bool, int) {                   \
    return static_cast<T&&>(value);                                                                \
  }                                                                                                \
  template <class T>                                                                               \
  requires(!std::is_lvalue_reference_v<T>) inline T name(T&& value, int) {                         \
    return static_cast<T&&>(value);                                                                \
  }

CUGRADE_EMU_ACCESS(shared_read, shared_use::read)
CUGRADE_EMU_ACCESS(shared_write, shared_use::write)
CUGRADE_EMU_ACCESS(shared_update, shared_use::update)
#undef CUGRADE_EMU_ACCESS

/// An atomic on `address`: reported when it lies in the checked block's shared memory.
[[gnu::always_inline, gnu::artificial]] inline void note_atomic(const volatile void* address,
                                                                std::size_t bytes, int line) {
  if (__builtin_expect(t_ctx.check_shared, false)) {
    settle_update();
    if (in_block_shared(address)) {
      note_shared(address, bytes, shared_use::atomic, line);
    } else {
      note_outside_shared(address, bytes, shared_use::atomic, line);
    }
  }
}

/// The CPU's cycle counter (the time stamp counter on x86-64; elsewhere 0, and no atomic is ever
/// timed): cheap, and only ratios of it are used (atomic_contention.h).
[[gnu::always_inline]] inline unsigned long long cycle_count() {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#else
  return 0;
#endif
}

/// Declared first in every atomic function (atomics.h): notes the atomic, and for one atomic in
/// a period (atomic_contention.h) takes the cycle count before it and, once it is done (the
/// destructor runs after the return value is computed), hands the time to atomic_timed.
class atomic_note {
public:
  [[gnu::always_inline]] atomic_note(const volatile void* address, std::size_t bytes, int line)
      : m_address(address) {
    note_atomic(address, bytes, line);
    if (__builtin_expect(--t_ctx.atomic_countdown == 0, false)) {
      m_started = cycle_count();
    }
  }
  [[gnu::always_inline]] ~atomic_note() {
    if (__builtin_expect(m_started != 0, false)) {
      atomic_timed(m_address, m_started);
    }
  }
  atomic_note(const atomic_note&) = delete;
  atomic_note& operator=(const atomic_note&) = delete;

private:
  const volatile void* m_address;
  unsigned long long m_started = 0;
};

} // namespace cugrade::emu::detail
