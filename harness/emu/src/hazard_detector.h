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

  /// A new barrier interval (a __syncthreads() releases): earlier accesses can no longer race.
  void new_interval();
  /// A block starts: a new interval, without the write a block stopped at a fault left unjudged
  /// (it was another kernel's, or another block's: it races with nothing here).
  void new_block() {
    m_pending.bytes = 0;
    new_interval();
  }
  /// An access by `thread` to `bytes` bytes at `memory`, `offset` bytes into the arena; true
  /// when it makes a hazard (found() says which). A write is kept pending until settle() or the
  /// next access.
  bool access(std::size_t offset, const volatile void* memory, std::size_t bytes, shared_use use,
              unsigned thread, int line) {
    if (m_pending.bytes != 0 && settle_pending()) {
      return true;
    }
    if (use == shared_use::read && bytes == 4 && offset % 4 == 0 && seen_read(offset / 4, thread)) {
      return false;
    }
    return access_slow(offset, memory, bytes, use, thread, line);
  }
  /// Judges the pending write, if any: call before another thread runs. True on a hazard.
  bool settle() { return m_pending.bytes != 0 && settle_pending(); }
  /// The hazard the last access or settle() found.
  [[nodiscard]] const hazard& found() const { return m_found; }

private:
  static constexpr std::uint16_t nobody = 0xFFFF;
  // What one 4-byte word saw in the current interval (stale when its epochs are older).
  struct word {
    std::uint32_t write_epoch;
    std::uint32_t read_epoch;
    std::uint16_t writer;
    std::uint16_t write_line;
    std::uint16_t other_writer; ///< nobody, or the last writer of another warp than `writer`'s
    std::uint16_t other_write_line;
    std::uint8_t other_write_mask;
    std::uint8_t other_write_use;
    std::uint16_t reader;
    std::uint16_t read_line;
    std::uint16_t other_reader; ///< nobody, or a reader of another warp than `reader`'s
    std::uint16_t other_line;
    std::uint8_t write_mask; ///< bytes of the word written
    std::uint8_t read_mask;
    std::uint8_t other_mask;
    std::uint8_t write_use;
    std::uint8_t read_use;
    std::uint8_t other_use;
  };

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

  bool access_slow(std::size_t offset, const volatile void* memory, std::size_t bytes,
                   shared_use use, unsigned thread, int line);
  bool settle_pending();
  /// Whether a whole-word read by `thread` changes nothing: the word was read in this interval
  /// by its warp (or by two other warps already) and no other warp wrote it. Most reads of a
  /// tile are such.
  [[nodiscard]] bool seen_read(std::size_t index, unsigned thread) const {
    const word& w = m_words[index];
    const unsigned warp = thread / 32u;
    if (w.read_epoch != m_epoch) {
      return false;
    }
    if (w.write_epoch == m_epoch && (w.writer / 32u != warp || w.other_writer != nobody)) {
      return false; // may clash with another warp's write
    }
    if (w.reader / 32u == warp) {
      return w.read_mask == 0xF;
    }
    return w.other_reader != nobody && w.other_mask == 0xF; // another warp's read is kept
  }
  /// Applies one access to the words it covers; true on the first hazard (in m_found).
  bool record(std::size_t offset, std::size_t bytes, shared_use use, bool changed, unsigned thread,
              int line);

  word* m_words = nullptr;
  std::size_t m_count = 0;
  std::uint32_t m_epoch = 1;
  pending_write m_pending;
  hazard m_found;
};

} // namespace cugrade::emu::detail
