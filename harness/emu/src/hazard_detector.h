#pragma once
/// \file
/// Shared-memory hazards as racecheck sees them, independent of the order in which the emulator
/// runs a block's threads. For every 4-byte word of the arena it keeps the last write and up to
/// two reads (from different warps) of the current barrier interval; an access is a hazard when
/// another thread of ANOTHER warp touched the same bytes in the same interval and one of the two
/// accesses is a write, unless both are atomics:
///
///   write, then read   (RAW)        read, then write   (WAR)        write, then write  (WAW)
///
/// A store that leaves the bytes as they were (every thread writing the same 0) is no write:
/// racecheck rates such hazards INFO, below what it reports. Hazards between lanes of one warp
/// are not reported either: racecheck rates them WARNING (warp-synchronous code), and the grader
/// counts racecheck's errors only. A write is judged once it is done, before another thread runs
/// (settle()), so the detector can see whether it changed anything.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "cugrade_emu/shared_access.h"

namespace cugrade::emu::detail {

/// One side of a hazard.
struct hazard_access {
  unsigned thread = 0; ///< linear index in the block
  int line = 0;
  shared_use use = shared_use::read;
};

/// Two accesses to the same bytes by threads of different warps in one barrier interval.
struct hazard {
  std::size_t offset = 0; ///< of the first byte both touched, from the arena's start
  hazard_access earlier;
  hazard_access later;
};

class hazard_detector {
public:
  /// Covers `arena_bytes` bytes of shared memory from their start (reserved, touched lazily).
  explicit hazard_detector(std::size_t arena_bytes);
  ~hazard_detector();
  hazard_detector(const hazard_detector&) = delete;
  hazard_detector& operator=(const hazard_detector&) = delete;

  /// A new barrier interval (a block starts, or a __syncthreads() releases): earlier accesses
  /// can no longer race.
  void new_interval();
  /// An access by `thread` to `bytes` bytes at `memory`, `offset` bytes into the arena. A write
  /// is kept pending until settle() or the next access.
  std::optional<hazard> access(std::size_t offset, const volatile void* memory, std::size_t bytes,
                               shared_use use, unsigned thread, int line);
  /// Judges the pending write, if any: call before another thread runs.
  std::optional<hazard> settle() { return m_pending.bytes == 0 ? std::nullopt : settle_pending(); }

private:
  struct word;
  struct pending_write {
    std::size_t offset = 0;
    const volatile unsigned char* memory = nullptr;
    std::size_t bytes = 0; ///< 0: none
    unsigned char before[16];
    bool compared = false; ///< `before` holds the old bytes (writes of up to 16 bytes)
    unsigned thread = 0;
    int line = 0;
    shared_use use = shared_use::write;
  };

  std::optional<hazard> settle_pending();
  /// Applies one access to the words it covers; the first hazard found, if any.
  std::optional<hazard> record(std::size_t offset, std::size_t bytes, shared_use use, bool changed,
                               unsigned thread, int line);

  word* m_words = nullptr;
  std::size_t m_count = 0;
  std::uint32_t m_epoch = 1;
  pending_write m_pending;
};

} // namespace cugrade::emu::detail
