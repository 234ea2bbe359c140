#include "harness/emu/src/hazard_detector.h"

#include <sys/mman.h>

#include <cstring>

#include "harness/core/error.h"

namespace cugrade::emu::detail {
namespace {

constexpr std::size_t k_word = 4;

unsigned warp_of(std::uint16_t thread) {
  return thread / 32u;
}

std::uint16_t line16(int line) {
  return static_cast<std::uint16_t>(line < 0 ? 0 : (line > 0xFFFE ? 0xFFFE : line));
}

} // namespace

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

bool hazard_detector::access_slow(std::size_t offset, const volatile void* memory,
                                  std::size_t bytes, shared_use use, unsigned thread, int line) {
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
    return false;
  }
  return record(offset, bytes, use, use == shared_use::atomic, thread, line);
}

bool hazard_detector::settle_pending() {
  const pending_write w = m_pending;
  m_pending.bytes = 0;
  bool changed = !w.compared;
  for (std::size_t i = 0; !changed && i < w.bytes; ++i) {
    changed = w.memory[i] != w.before[i];
  }
  return record(w.offset, w.bytes, w.use, changed, w.thread, w.line);
}

bool hazard_detector::record(std::size_t offset, std::size_t bytes, shared_use use, bool changed,
                             unsigned thread, int line) {
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
    // Whether `who`'s access (with `how`, to `bytes_seen` of the word) races with this one;
    // if so, m_found says how.
    const auto clash = [&](std::uint16_t who, std::uint16_t where, std::uint8_t how,
                           std::uint8_t bytes_seen) {
      if (who == hazard_detector::nobody || warp_of(who) == warp || (bytes_seen & mask) == 0) {
        return false;
      }
      if (atomic && how == static_cast<std::uint8_t>(shared_use::atomic)) {
        return false;
      }
      m_found.offset = i * k_word + lo;
      m_found.earlier = {who, where, static_cast<shared_use>(how)};
      m_found.later = {thread, line, use};
      return true;
    };
    const bool written = w.write_epoch == m_epoch;
    const bool read = w.read_epoch == m_epoch;
    if (written && (changed || use == shared_use::read || use == shared_use::update)) {
      // A read (or a real write) after another warp's write. A store of the value already
      // there after a write is no hazard (both wrote the same).
      if (auto h = clash(w.writer, w.write_line, w.write_use, w.write_mask)) {
        return h;
      }
      if (auto h =
              clash(w.other_writer, w.other_write_line, w.other_write_use, w.other_write_mask)) {
        return h;
      }
    }
    if (changed && read) { // a write after another warp's read
      if (clash(w.reader, w.read_line, w.read_use, w.read_mask) ||
          clash(w.other_reader, w.other_line, w.other_use, w.other_mask)) {
        return true;
      }
    }
    if (changed) {
      const bool same_warp = written && warp_of(w.writer) == warp;
      if (!written) {
        w.other_writer = hazard_detector::nobody;
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
      w.other_reader = hazard_detector::nobody;
    } else if (warp_of(w.reader) == warp) {
      w.read_mask = static_cast<std::uint8_t>(w.read_mask | mask);
    } else if (w.other_reader == hazard_detector::nobody) {
      w.other_reader = self;
      w.other_line = at;
      w.other_mask = mask;
      w.other_use = how;
    } else {
      w.other_mask = static_cast<std::uint8_t>(w.other_mask | mask);
    }
  }
  return false;
}

} // namespace cugrade::emu::detail
