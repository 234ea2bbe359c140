#include "harness/emu/src/hazard_detector.h"

#include <sys/mman.h>

#include <cstring>

#include "harness/core/error.h"

namespace cugrade::emu::detail {
namespace {

constexpr std::uint16_t k_nobody = 0xFFFF;
constexpr std::size_t k_word = 4;

unsigned warp_of(std::uint16_t thread) {
  return thread / 32u;
}

std::uint16_t line16(int line) {
  return static_cast<std::uint16_t>(line < 0 ? 0 : (line > 0xFFFE ? 0xFFFE : line));
}

} // namespace

// What one 4-byte word saw in the current interval (stale when its epochs are older).
struct hazard_detector::word {
  std::uint32_t write_epoch;
  std::uint32_t read_epoch;
  std::uint16_t writer;
  std::uint16_t write_line;
  std::uint16_t other_writer; ///< k_nobody, or the last writer of another warp than `writer`'s
  std::uint16_t other_write_line;
  std::uint8_t other_write_mask;
  std::uint8_t other_write_use;
  std::uint16_t reader;
  std::uint16_t read_line;
  std::uint16_t other_reader; ///< k_nobody, or a reader of another warp than `reader`'s
  std::uint16_t other_line;
  std::uint8_t write_mask; ///< bytes of the word written
  std::uint8_t read_mask;
  std::uint8_t other_mask;
  std::uint8_t write_use;
  std::uint8_t read_use;
  std::uint8_t other_use;
};

hazard_detector::hazard_detector(std::size_t arena_bytes) : m_count(arena_bytes / k_word) {
  void* map = mmap(nullptr, m_count * sizeof(word), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) {
    CUGRADE_THROW("cugrade emulator: cannot reserve the shared-memory hazard detector's shadow "
                  "(mmap failed; is the address-space limit too low?)");
  }
  m_words = static_cast<word*>(map);
}

hazard_detector::~hazard_detector() {
  munmap(m_words, m_count * sizeof(word));
}

void hazard_detector::new_interval() {
  if (++m_epoch == 0) { // after 2^32 intervals: forget everything (zero pages: epoch 0, stale)
    madvise(m_words, m_count * sizeof(word), MADV_DONTNEED);
    m_epoch = 1;
  }
}

std::optional<hazard> hazard_detector::access(std::size_t offset, const volatile void* memory,
                                              std::size_t bytes, shared_use use, unsigned thread,
                                              int line) {
  std::optional<hazard> found = settle();
  if (found) {
    return found;
  }
  if (use == shared_use::write || use == shared_use::update) {
    m_pending = {};
    m_pending.offset = offset;
    m_pending.memory = static_cast<const volatile unsigned char*>(memory);
    m_pending.bytes = bytes;
    m_pending.compared = bytes <= sizeof m_pending.before;
    for (std::size_t i = 0; m_pending.compared && i < bytes; ++i) {
      m_pending.before[i] = m_pending.memory[i];
    }
    m_pending.thread = thread;
    m_pending.line = line;
    m_pending.use = use;
    return std::nullopt;
  }
  return record(offset, bytes, use, use == shared_use::atomic, thread, line);
}

std::optional<hazard> hazard_detector::settle_pending() {
  const pending_write w = m_pending;
  m_pending.bytes = 0;
  bool changed = !w.compared;
  for (std::size_t i = 0; !changed && i < w.bytes; ++i) {
    changed = w.memory[i] != w.before[i];
  }
  return record(w.offset, w.bytes, w.use, changed, w.thread, w.line);
}

std::optional<hazard> hazard_detector::record(std::size_t offset, std::size_t bytes, shared_use use,
                                              bool changed, unsigned thread, int line) {
  const auto self = static_cast<std::uint16_t>(thread);
  const unsigned warp = warp_of(self);
  const std::uint16_t at = line16(line);
  const bool atomic = use == shared_use::atomic;
  const std::size_t first = offset / k_word;
  const std::size_t last = (offset + bytes - 1) / k_word;
  for (std::size_t i = first; i <= last && i < m_count; ++i) {
    word& w = m_words[i];
    const std::size_t lo = i == first ? offset % k_word : 0;
    const std::size_t hi = i == last ? (offset + bytes - 1) % k_word : k_word - 1;
    const auto mask = static_cast<std::uint8_t>(((2u << hi) - 1u) & ~((1u << lo) - 1u));
    const auto clash = [&](std::uint16_t who, std::uint16_t where, std::uint8_t how,
                           std::uint8_t bytes_seen) -> std::optional<hazard> {
      if (who == k_nobody || warp_of(who) == warp || (bytes_seen & mask) == 0) {
        return std::nullopt;
      }
      if (atomic && how == static_cast<std::uint8_t>(shared_use::atomic)) {
        return std::nullopt;
      }
      hazard h;
      h.offset = i * k_word + lo;
      h.earlier = {who, where, static_cast<shared_use>(how)};
      h.later = {thread, line, use};
      return h;
    };
    const bool written = w.write_epoch == m_epoch;
    const bool read = w.read_epoch == m_epoch;
    if (written && (changed || use == shared_use::read || use == shared_use::update)) {
      // A read (or a real write) after another warp's write. A store of the value already
      // there after a write is no hazard (both wrote the same).
      if (auto h = clash(w.writer, w.write_line, w.write_use, w.write_mask)) {
        return h;
      }
      if (auto h = clash(w.other_writer, w.other_write_line, w.other_write_use,
                         w.other_write_mask)) {
        return h;
      }
    }
    if (changed && read) { // a write after another warp's read
      if (auto h = clash(w.reader, w.read_line, w.read_use, w.read_mask)) {
        return h;
      }
      if (auto h = clash(w.other_reader, w.other_line, w.other_use, w.other_mask)) {
        return h;
      }
    }
    if (changed) {
      const bool same_warp = written && warp_of(w.writer) == warp;
      if (!written) {
        w.other_writer = k_nobody;
      } else if (!same_warp) { // atomics of several warps: remember one of another warp
        w.other_writer = w.writer;
        w.other_write_line = w.write_line;
        w.other_write_mask = w.write_mask;
        w.other_write_use = w.write_use;
      }
      w.write_mask = same_warp ? static_cast<std::uint8_t>(w.write_mask | mask) : mask;
      w.write_epoch = m_epoch;
      w.writer = self;
      w.write_line = at;
      w.write_use = static_cast<std::uint8_t>(use);
      continue;
    }
    // A read, or a store that changed nothing: a later write of another warp races with it.
    const auto how = static_cast<std::uint8_t>(use);
    if (!read) {
      w.read_epoch = m_epoch;
      w.reader = self;
      w.read_line = at;
      w.read_mask = mask;
      w.read_use = how;
      w.other_reader = k_nobody;
    } else if (warp_of(w.reader) == warp) {
      w.read_mask = static_cast<std::uint8_t>(w.read_mask | mask);
    } else if (w.other_reader == k_nobody) {
      w.other_reader = self;
      w.other_line = at;
      w.other_mask = mask;
      w.other_use = how;
    } else {
      w.other_mask = static_cast<std::uint8_t>(w.other_mask | mask);
    }
  }
  return std::nullopt;
}

} // namespace cugrade::emu::detail
