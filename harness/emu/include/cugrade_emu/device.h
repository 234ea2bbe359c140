#pragma once
/// \file
/// Device-side intrinsics: block barriers, warp primitives with 32-lane semantics, fences.
/// Barriers and warp rendezvous call into the scheduler (a fiber switch); everything else is
/// inline plain C++.

#include <cstdint>
#include <type_traits>

#include "cugrade_emu/context.h"

constexpr int warpSize = 32;

namespace cugrade::emu::detail {

enum class sync_kind : int { plain, count, all, any };

#pragma GCC visibility push(default)
/// Blocks until every live thread of the block arrives; returns the predicate reduction for the
/// counting variants. `file`/`line` name the barrier in diagnostics.
int sync_threads(sync_kind kind, int predicate, const char* file, int line);

enum class warp_op : int {
  shfl_idx,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  any,
  all,
  sync,
  reduce_add,
  reduce_min_u,
  reduce_min_s,
  reduce_max_u,
  reduce_max_s,
  reduce_and,
  reduce_or,
  reduce_xor
};

/// One lane's part in a warp rendezvous: waits for every lane named in `mask`, then returns this
/// lane's result (the exchanged value's bits, a ballot, a reduction).
std::uint64_t warp_exchange(warp_op op, unsigned mask, std::uint64_t value, int arg, int width,
                            const char* file, int line);

/// Lanes of the caller's warp that have not exited.
unsigned active_mask();

/// Lets the other threads of the block run (spin-wait loops, __nanosleep).
void yield_thread();
#pragma GCC visibility pop

template <class T> inline std::uint64_t to_lane_bits(T v) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "warp shuffles move values of at most 8 bytes");
  std::uint64_t bits = 0;
  __builtin_memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <class T> inline T from_lane_bits(std::uint64_t bits) {
  T v;
  __builtin_memcpy(&v, &bits, sizeof(T));
  return v;
}

} // namespace cugrade::emu::detail

#define __syncthreads()                                                                            \
  ((void)::cugrade::emu::detail::sync_threads(::cugrade::emu::detail::sync_kind::plain, 0,         \
                                              __FILE__, __LINE__))
#define __syncthreads_count(p)                                                                     \
  ::cugrade::emu::detail::sync_threads(::cugrade::emu::detail::sync_kind::count, (p) ? 1 : 0,      \
                                       __FILE__, __LINE__)
#define __syncthreads_and(p)                                                                       \
  ::cugrade::emu::detail::sync_threads(::cugrade::emu::detail::sync_kind::all, (p) ? 1 : 0,        \
                                       __FILE__, __LINE__)
#define __syncthreads_or(p)                                                                        \
  ::cugrade::emu::detail::sync_threads(::cugrade::emu::detail::sync_kind::any, (p) ? 1 : 0,        \
                                       __FILE__, __LINE__)

// Warp primitives are functions whose defaulted trailing arguments capture the caller's file and
// line (GCC evaluates __builtin_FILE/__builtin_LINE at the call site, honouring #line), so a
// rendezvous that never completes names the student's line.
#define CUGRADE_EMU_HERE const char *file = __builtin_FILE(), int line = __builtin_LINE()

template <class T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return from_lane_bits<T>(
      warp_exchange(warp_op::shfl_idx, mask, to_lane_bits(var), src_lane, width, file, line));
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                        CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return from_lane_bits<T>(warp_exchange(warp_op::shfl_up, mask, to_lane_bits(var),
                                         static_cast<int>(delta), width, file, line));
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                          CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return from_lane_bits<T>(warp_exchange(warp_op::shfl_down, mask, to_lane_bits(var),
                                         static_cast<int>(delta), width, file, line));
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize,
                         CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return from_lane_bits<T>(
      warp_exchange(warp_op::shfl_xor, mask, to_lane_bits(var), lane_mask, width, file, line));
}
inline unsigned __ballot_sync(unsigned mask, int predicate, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<unsigned>(
      warp_exchange(warp_op::ballot, mask, predicate != 0, 0, warpSize, file, line));
}
inline int __any_sync(unsigned mask, int predicate, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<int>(
      warp_exchange(warp_op::any, mask, predicate != 0, 0, warpSize, file, line));
}
inline int __all_sync(unsigned mask, int predicate, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<int>(
      warp_exchange(warp_op::all, mask, predicate != 0, 0, warpSize, file, line));
}
inline void __syncwarp(unsigned mask = 0xffffffffu, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  (void)warp_exchange(warp_op::sync, mask, 0, 0, warpSize, file, line);
}
inline unsigned __activemask() {
  return ::cugrade::emu::detail::active_mask();
}

namespace cugrade::emu::detail {
inline std::uint64_t warp_reduce(warp_op op, unsigned mask, std::uint32_t v, const char* file,
                                 int line) {
  return warp_exchange(op, mask, v, 0, warpSize, file, line);
}
} // namespace cugrade::emu::detail

inline unsigned __reduce_add_sync(unsigned mask, unsigned v, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<unsigned>(warp_reduce(warp_op::reduce_add, mask, v, file, line));
}
inline int __reduce_add_sync(unsigned mask, int v, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<int>(
      warp_reduce(warp_op::reduce_add, mask, static_cast<std::uint32_t>(v), file, line));
}
inline unsigned __reduce_min_sync(unsigned mask, unsigned v, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<unsigned>(warp_reduce(warp_op::reduce_min_u, mask, v, file, line));
}
inline int __reduce_min_sync(unsigned mask, int v, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<int>(
      warp_reduce(warp_op::reduce_min_s, mask, static_cast<std::uint32_t>(v), file, line));
}
inline unsigned __reduce_max_sync(unsigned mask, unsigned v, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<unsigned>(warp_reduce(warp_op::reduce_max_u, mask, v, file, line));
}
inline int __reduce_max_sync(unsigned mask, int v, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<int>(
      warp_reduce(warp_op::reduce_max_s, mask, static_cast<std::uint32_t>(v), file, line));
}
inline unsigned __reduce_and_sync(unsigned mask, unsigned v, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<unsigned>(warp_reduce(warp_op::reduce_and, mask, v, file, line));
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned v, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<unsigned>(warp_reduce(warp_op::reduce_or, mask, v, file, line));
}
inline unsigned __reduce_xor_sync(unsigned mask, unsigned v, CUGRADE_EMU_HERE) {
  using namespace ::cugrade::emu::detail;
  return static_cast<unsigned>(warp_reduce(warp_op::reduce_xor, mask, v, file, line));
}
#undef CUGRADE_EMU_HERE

// Fences order this CPU thread's memory accesses; blocks on other workers see them in order.
inline void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_system() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_block() {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
inline void __nanosleep(unsigned) {
  ::cugrade::emu::detail::yield_thread();
}
inline long long clock64() {
  return static_cast<long long>(__builtin_ia32_rdtsc());
}
