#pragma once
/// \file
/// CUDA's atomic functions on global and shared memory, with CUDA's overload set and semantics
/// (each returns the old value; atomicInc/atomicDec wrap at `val`). Blocks run concurrently on
/// several CPU threads, so these are real hardware atomics (relaxed order, as CUDA's are).
/// In a block the emulator checks, an atomic on shared memory is reported to the hazard detector
/// (two atomics never race; an atomic and a plain access of another warp may).

#include "cugrade_emu/device.h"
#include "cugrade_emu/shared_access.h"

namespace cugrade::emu::detail {

/// After an atomicCAS: a thread whose compare-and-swaps fail 64 times in a row spins on a lock
/// (`while (atomicCAS(&mutex, 0, 1) != 0) {}`). Threads here are not preempted, so it yields: the
/// lane holding the lock, or a warp step that lane waits in (warp_update.cpp), goes on.
[[gnu::always_inline]] inline void note_cas(bool swapped) {
  if (swapped) {
    t_ctx.cas_failures = 0;
  } else if (__builtin_expect(++t_ctx.cas_failures >= 64, false)) {
    t_ctx.cas_failures = 0;
    yield_thread();
  }
}

template <class T, class F> inline T atomic_update(T* address, F next) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T desired = next(old);
  while (!__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
    desired = next(old);
  }
  return old;
}

} // namespace cugrade::emu::detail

#define CUGRADE_EMU_INT_ATOMIC(T)                                                                  \
  inline T atomicAdd(T* a, T v, int line = __builtin_LINE()) {                                     \
    const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);                 \
    return __atomic_fetch_add(a, v, __ATOMIC_RELAXED);                                             \
  }                                                                                                \
  inline T atomicSub(T* a, T v, int line = __builtin_LINE()) {                                     \
    const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);                 \
    return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED);                                             \
  }                                                                                                \
  inline T atomicExch(T* a, T v, int line = __builtin_LINE()) {                                    \
    const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);                 \
    return __atomic_exchange_n(a, v, __ATOMIC_RELAXED);                                            \
  }                                                                                                \
  inline T atomicAnd(T* a, T v, int line = __builtin_LINE()) {                                     \
    const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);                 \
    return __atomic_fetch_and(a, v, __ATOMIC_RELAXED);                                             \
  }                                                                                                \
  inline T atomicOr(T* a, T v, int line = __builtin_LINE()) {                                      \
    const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);                 \
    return __atomic_fetch_or(a, v, __ATOMIC_RELAXED);                                              \
  }                                                                                                \
  inline T atomicXor(T* a, T v, int line = __builtin_LINE()) {                                     \
    const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);                 \
    return __atomic_fetch_xor(a, v, __ATOMIC_RELAXED);                                             \
  }                                                                                                \
  inline T atomicMin(T* a, T v, int line = __builtin_LINE()) {                                     \
    const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);                 \
    return ::cugrade::emu::detail::atomic_update(a, [v](T o) { return v < o ? v : o; });           \
  }                                                                                                \
  inline T atomicMax(T* a, T v, int line = __builtin_LINE()) {                                     \
    const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);                 \
    return ::cugrade::emu::detail::atomic_update(a, [v](T o) { return v > o ? v : o; });           \
  }                                                                                                \
  inline T atomicCAS(T* a, T compare, T v, int line = __builtin_LINE()) {                          \
    const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);                 \
    const T expected = compare;                                                                    \
    __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);        \
    ::cugrade::emu::detail::note_cas(compare == expected);                                         \
    return compare;                                                                                \
  }

CUGRADE_EMU_INT_ATOMIC(int)
CUGRADE_EMU_INT_ATOMIC(unsigned int)
CUGRADE_EMU_INT_ATOMIC(unsigned long long)
#undef CUGRADE_EMU_INT_ATOMIC

inline long long atomicMin(long long* a, long long v, int line = __builtin_LINE()) {
  const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);
  return ::cugrade::emu::detail::atomic_update(a, [v](long long o) { return v < o ? v : o; });
}
inline long long atomicMax(long long* a, long long v, int line = __builtin_LINE()) {
  const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);
  return ::cugrade::emu::detail::atomic_update(a, [v](long long o) { return v > o ? v : o; });
}
inline unsigned short atomicCAS(unsigned short* a, unsigned short compare, unsigned short v,
                                int line = __builtin_LINE()) {
  const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);
  const unsigned short expected = compare;
  __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  ::cugrade::emu::detail::note_cas(compare == expected);
  return compare;
}

/// ((old >= val) ? 0 : (old + 1))
inline unsigned int atomicInc(unsigned int* a, unsigned int val, int line = __builtin_LINE()) {
  const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);
  return ::cugrade::emu::detail::atomic_update(
      a, [val](unsigned int o) { return o >= val ? 0u : o + 1u; });
}
/// (((old == 0) || (old > val)) ? val : (old - 1))
inline unsigned int atomicDec(unsigned int* a, unsigned int val, int line = __builtin_LINE()) {
  const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);
  return ::cugrade::emu::detail::atomic_update(
      a, [val](unsigned int o) { return (o == 0u || o > val) ? val : o - 1u; });
}

inline float atomicAdd(float* a, float v, int line = __builtin_LINE()) {
  const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);
  return ::cugrade::emu::detail::atomic_update(a, [v](float o) { return o + v; });
}
inline double atomicAdd(double* a, double v, int line = __builtin_LINE()) {
  const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);
  return ::cugrade::emu::detail::atomic_update(a, [v](double o) { return o + v; });
}
inline float atomicExch(float* a, float v, int line = __builtin_LINE()) {
  const ::cugrade::emu::detail::atomic_note __cugrade_note(a, sizeof(*a), line);
  float old;
  __atomic_exchange(a, &v, &old, __ATOMIC_RELAXED);
  return old;
}

// Scoped variants behave like the device-wide ones here (one address space, real atomics).
#define CUGRADE_EMU_SCOPED(name)                                                                   \
  template <class T, class... A> inline auto name##_block(T* a, A... v) {                          \
    return name(a, v...);                                                                          \
  }                                                                                                \
  template <class T, class... A> inline auto name##_system(T* a, A... v) {                         \
    return name(a, v...);                                                                          \
  }
CUGRADE_EMU_SCOPED(atomicAdd)
CUGRADE_EMU_SCOPED(atomicSub)
CUGRADE_EMU_SCOPED(atomicExch)
CUGRADE_EMU_SCOPED(atomicMin)
CUGRADE_EMU_SCOPED(atomicMax)
CUGRADE_EMU_SCOPED(atomicInc)
CUGRADE_EMU_SCOPED(atomicDec)
CUGRADE_EMU_SCOPED(atomicAnd)
CUGRADE_EMU_SCOPED(atomicOr)
CUGRADE_EMU_SCOPED(atomicXor)
CUGRADE_EMU_SCOPED(atomicCAS)
#undef CUGRADE_EMU_SCOPED
