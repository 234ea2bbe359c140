#pragma once
/// \file
/// Stands in for CUDA's <cooperative_groups.h>, the part of it courses teach: the block
/// (`this_thread_block()`, `block.sync()`), static tiles of a warp (`tiled_partition<32>(block)`,
/// their shuffles and votes), tiles of a size known at run time, and `thread_group` for any of
/// them. Each maps onto the emulator's own primitives: a block's
/// sync is `__syncthreads()` and a tile's is `__syncwarp()` over the tile's lanes, so barrier
/// divergence, warp rendezvous that cannot complete and shared-memory hazards are found as they
/// are for the intrinsics. Lanes are the block's linear thread ids modulo 32, as on a GPU.
///
/// Not provided: `coalesced_threads()` (the emulator does not know which lanes of a warp run a
/// branch together: docs/emulation.md, `__activemask()`), grid groups (`this_grid()`: a grid-wide
/// sync needs a cooperative launch, which the contract forbids), multi-grid groups, tiles larger
/// than a warp, `memcpy_async`, and the scans of <cooperative_groups/scan.h>. Using one is a
/// compile error naming it.

#include "cugrade_emu.h"

// The caller's file and line, for a sync that never completes (as the warp intrinsics do).
#define CUGRADE_CG_HERE const char *file = __builtin_FILE(), int line = __builtin_LINE()

namespace cooperative_groups {

namespace details {

inline unsigned linear_thread_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
inline unsigned lane() {
  return linear_thread_rank() % warpSize;
}
/// The lanes of the tile of `size` lanes (a power of two, at most 32) that holds this lane.
inline unsigned tile_mask(unsigned size) {
  return size >= 32 ? 0xffffffffu : ((1u << size) - 1u) << (lane() / size * size);
}
constexpr bool tile_size_ok(unsigned size) {
  return size >= 1 && size <= 32 && (size & (size - 1)) == 0;
}
/// The block's barrier, named at the caller's line.
inline void block_sync(const char* file, int line) {
  (void)::cugrade::emu::detail::sync_threads(::cugrade::emu::detail::sync_kind::plain, 0, file,
                                             line);
}

} // namespace details

/// Any group: a block, or a tile of a warp. A `thread_block` or a tile passed as a
/// `thread_group` keeps what it is.
class thread_group {
public:
  void sync(CUGRADE_CG_HERE) const {
    if (m_tile == 0) {
      details::block_sync(file, line);
    } else {
      __syncwarp(details::tile_mask(m_tile), file, line);
    }
  }
  [[nodiscard]] unsigned long long thread_rank() const {
    return m_tile == 0 ? details::linear_thread_rank() : details::lane() % m_tile;
  }
  [[nodiscard]] unsigned long long num_threads() const {
    return m_tile == 0 ? details::block_threads() : m_tile;
  }
  [[nodiscard]] unsigned long long size() const { return num_threads(); }
  [[nodiscard]] bool is_valid() const { return true; }

protected:
  explicit thread_group(unsigned tile) : m_tile(tile) {}
  unsigned m_tile; ///< 0: the whole block; else the tile's size in lanes
};

class thread_block : public thread_group {
public:
  thread_block() : thread_group(0) {}
  void sync(CUGRADE_CG_HERE) const { details::block_sync(file, line); }
  [[nodiscard]] unsigned thread_rank() const { return details::linear_thread_rank(); }
  [[nodiscard]] unsigned num_threads() const { return details::block_threads(); }
  [[nodiscard]] unsigned size() const { return num_threads(); }
  [[nodiscard]] ::dim3 group_index() const { return ::dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  [[nodiscard]] ::dim3 thread_index() const {
    return ::dim3(threadIdx.x, threadIdx.y, threadIdx.z);
  }
  [[nodiscard]] ::dim3 group_dim() const { return ::dim3(blockDim.x, blockDim.y, blockDim.z); }
  [[nodiscard]] ::dim3 dim_threads() const { return group_dim(); }
};

inline thread_block this_thread_block() {
  return thread_block();
}

/// A tile of Size lanes of one warp (Size a power of two, at most 32).
template <unsigned int Size, class ParentT = void> class thread_block_tile : public thread_group {
  static_assert(details::tile_size_ok(Size),
                "cugrade's emulator provides tiles of 1, 2, 4, 8, 16 or 32 threads");

public:
  thread_block_tile() : thread_group(Size) {}
  template <class OtherParent>
  thread_block_tile(const thread_block_tile<Size, OtherParent>&) : thread_group(Size) {}

  void sync(CUGRADE_CG_HERE) const { __syncwarp(mask(), file, line); }
  [[nodiscard]] unsigned thread_rank() const { return details::lane() % Size; }
  [[nodiscard]] static constexpr unsigned num_threads() { return Size; }
  [[nodiscard]] static constexpr unsigned size() { return Size; }
  [[nodiscard]] unsigned meta_group_rank() const { return details::linear_thread_rank() / Size; }
  [[nodiscard]] unsigned meta_group_size() const {
    return (details::block_threads() + Size - 1) / Size;
  }

  template <class T> T shfl(T var, int src_rank, CUGRADE_CG_HERE) const {
    return __shfl_sync(mask(), var, src_rank, static_cast<int>(Size), file, line);
  }
  template <class T> T shfl_down(T var, unsigned delta, CUGRADE_CG_HERE) const {
    return __shfl_down_sync(mask(), var, delta, static_cast<int>(Size), file, line);
  }
  template <class T> T shfl_up(T var, unsigned delta, CUGRADE_CG_HERE) const {
    return __shfl_up_sync(mask(), var, delta, static_cast<int>(Size), file, line);
  }
  template <class T> T shfl_xor(T var, unsigned lane_mask, CUGRADE_CG_HERE) const {
    return __shfl_xor_sync(mask(), var, static_cast<int>(lane_mask), static_cast<int>(Size), file,
                           line);
  }
  int any(int predicate, CUGRADE_CG_HERE) const {
    return __any_sync(mask(), predicate, file, line);
  }
  int all(int predicate, CUGRADE_CG_HERE) const {
    return __all_sync(mask(), predicate, file, line);
  }
  /// Bit i is the predicate of the tile's thread of rank i.
  unsigned ballot(int predicate, CUGRADE_CG_HERE) const {
    const unsigned warp_bits = __ballot_sync(mask(), predicate, file, line);
    return Size >= 32 ? warp_bits
                      : (warp_bits >> (details::lane() / Size * Size)) & ((1u << Size) - 1u);
  }

private:
  [[nodiscard]] static unsigned mask() { return details::tile_mask(Size); }
};

template <unsigned int Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT&) {
  return thread_block_tile<Size, ParentT>();
}

/// A tile whose size is known at run time (a power of two, at most 32), as a thread_group.
class dynamic_tile : public thread_group {
public:
  explicit dynamic_tile(unsigned size) : thread_group(size) {}
};

inline thread_group tiled_partition(const thread_group&, unsigned int tile_size) {
  if (!details::tile_size_ok(tile_size)) {
    std::fprintf(stderr,
                 "tiled_partition: a tile of %u threads: the emulator provides tiles of "
                 "1, 2, 4, 8, 16 or 32 threads\n",
                 tile_size);
    std::abort();
  }
  return dynamic_tile(tile_size);
}

template <class Group> void sync(const Group& g, CUGRADE_CG_HERE) {
  g.sync(file, line);
}

} // namespace cooperative_groups

#undef CUGRADE_CG_HERE
