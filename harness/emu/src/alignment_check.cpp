// Misaligned accesses: a GPU reads and writes a type only at an address that is a multiple of its
// alignment, and faults otherwise (cudaErrorMisalignedAddress). Device buffers start at a multiple
// of 256 bytes there; here a buffer's end touches its rear guard page, so its start is only as
// aligned as its size, and an access is judged by its offset into its buffer.
#include <cstdio>
#include <string>

#include "harness/emu/src/block_runner.h"
#include "harness/emu/src/memory.h"

namespace cugrade::emu::detail {

bool block_runner::placed_aligned(std::uintptr_t at, std::size_t align) {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  if (!device_memory::instance().buffer_around(reinterpret_cast<const void*>(at), 0, begin, end)) {
    m_unplaced_page = at >> 12;
    return (at & (align - 1)) == 0;
  }
  m_placed_begin = begin;
  m_placed_end = end;
  return ((at - begin) & (align - 1)) == 0;
}

namespace {

// "a 16-byte", "an 8-byte", "an 11-byte", "an 18,000-byte": the article as the number is read.
std::string sized(std::size_t bytes) {
  const std::string n = std::to_string(bytes);
  const bool vowel =
      n[0] == '8' || (n.size() % 3 == 2 && (n.rfind("11", 0) == 0 || n.rfind("18", 0) == 0));
  return (vowel ? "an " : "a ") + n + "-byte";
}

} // namespace

void block_runner::fail_misaligned(std::uintptr_t at, std::size_t bytes, std::size_t align,
                                   int line) {
  std::string where;
  if (at - m_placed_begin < m_placed_end - m_placed_begin) {
    where = "at byte " + std::to_string(at - m_placed_begin) + " of " +
            sized(m_placed_end - m_placed_begin) + " device buffer";
  } else {
    char text[2 + 16 + 1];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(at));
    where = std::string("at address ") + text;
  }
  fail("misaligned_address",
       sized(bytes) + " access " + where + ", which is not a multiple of " + std::to_string(align) +
           " (a GPU reads and writes a type only at an address aligned " +
           "to it: a float4 at a multiple of 16 bytes, a double at a multiple of 8)",
       current(), line > 0 ? wait_site{m_job->site.file, line} : wait_site{},
       cudaErrorMisalignedAddress, true);
}

} // namespace cugrade::emu::detail
