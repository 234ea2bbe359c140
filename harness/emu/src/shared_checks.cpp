// The checks of shared-memory accesses in a checked block (note_shared, called by the rewritten
// code through shared_access.h): an access outside its __shared__ array stops the block as
// out_of_bounds; an access that races with another warp's in the same barrier interval is
// reported as the launch's race, once, and the launch runs on. Messages name the array, the
// element, the lines and the threads.
#include <string>

#include "harness/emu/src/block_runner.h"

namespace cugrade::emu::detail {
use_words words_for(shared_use use) {
  switch (use) {
  case shared_use::read:
    return {"read", "a read"};
  case shared_use::write:
    return {"written", "a write"};
  case shared_use::update:
    return {"updated", "an update"};
  case shared_use::atomic:
    break;
  }
  return {"updated by an atomic", "an atomic update"};
}

namespace {

long long floor_div(long long a, long long b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// "T[1024]", "Mds[16][0]": the element `byte_offset` bytes from the array's start.
std::string element_name(const shared_slot_record& s, long long byte_offset) {
  const shared_array_info& info = s.info;
  const std::string name = info.name != nullptr && *info.name != '\0' ? info.name : "shared";
  const auto size = static_cast<long long>(info.element_size == 0 ? 1 : info.element_size);
  long long flat = floor_div(byte_offset, size);
  if (info.rank == 0) {
    return flat == 0 ? name : name + " (" + std::to_string(byte_offset) + " bytes from it)";
  }
  if (info.rank == 1 || flat < 0) {
    return name + "[" + std::to_string(flat) + "]";
  }
  std::string index;
  for (unsigned d = info.rank; d-- > 1;) {
    const auto extent = static_cast<long long>(info.extents[d]);
    index = "[" + std::to_string(flat % extent) + "]" + index;
    flat /= extent;
  }
  return name + "[" + std::to_string(flat) + "]" + index;
}

// "T has 1024 elements", "Mds is 16 x 16".
std::string extent_of(const shared_slot_record& s, bool dynamic) {
  const shared_array_info& info = s.info;
  const std::string name = info.name != nullptr && *info.name != '\0' ? info.name : "shared";
  if (dynamic) {
    return name + " has " +
           std::to_string(s.size / (info.element_size == 0 ? 1 : info.element_size)) +
           " elements (the launch's " + std::to_string(s.size) + " bytes of dynamic shared memory)";
  }
  if (info.rank <= 1) {
    return name + " has " + std::to_string(info.rank == 0 ? 1 : info.extents[0]) + " element" +
           (info.rank == 1 && info.extents[0] == 1 ? "" : (info.rank == 0 ? "" : "s"));
  }
  std::string dims = std::to_string(info.extents[0]);
  for (unsigned d = 1; d < info.rank; ++d) {
    dims += " x " + std::to_string(info.extents[d]);
  }
  return name + " is " + dims;
}

std::string triple(const ::uint3& v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

} // namespace

// "thread 512" in a 1-D block, "thread (3,15,0)" otherwise.
std::string block_runner::thread_of_block(unsigned thread) const {
  const ::uint3 b = m_job->block;
  return b.y == 1 && b.z == 1 ? "thread " + std::to_string(m_tid[thread].x)
                              : "thread " + triple(m_tid[thread]);
}

std::string block_runner::block_name() const {
  const ::uint3 g = m_job->grid;
  return g.y == 1 && g.z == 1 ? "block " + std::to_string(m_block_idx.x)
                              : "block " + triple(m_block_idx);
}

std::string block_runner::at_line(int line) const {
  return std::string(m_job->site.file) + ":" + std::to_string(line);
}

// Outside the arrays an access hit lately: inside another array (which becomes one of them), or
// outside every array, which stops the block.
bool block_runner::place_access(std::uintptr_t at, std::size_t bytes, shared_use use, int line) {
  if (!m_arena.holds(at, bytes)) {
    const shared_place where = m_arena.locate(reinterpret_cast<const void*>(at));
    if (where.slot != nullptr) {
      fail_out_of_bounds(where, use, line);
    }
    return false; // not shared memory at all
  }
  const shared_slot_record& s = *m_arena.locate(reinterpret_cast<const void*>(at)).slot;
  m_hot[1] = m_hot[0];
  m_hot[0] = {reinterpret_cast<std::uintptr_t>(s.base),
              reinterpret_cast<std::uintptr_t>(s.base) + s.size};
  return true;
}

void block_runner::fail_out_of_bounds(const shared_place& where, shared_use use, int line) {
  const shared_slot_record& s = *where.slot;
  const bool dynamic = s.key == nullptr;
  std::string message =
      "kernel " + std::string(m_job->site.kernel_name) + ": " + element_name(s, where.byte_offset) +
      " " + words_for(use).participle + " at " + at_line(line) + " by " +
      thread_of_block(m_current) + " of " + block_name() + "; " + extent_of(s, dynamic) +
      (where.byte_offset < 0 ? " (the index is below 0)" : " (the index is past its end)");
  fail_as(diagnostic_of("out_of_bounds", std::move(message), m_current,
                        wait_site{m_job->site.file, line}),
          cudaErrorIllegalAddress, true);
}

void block_runner::report_hazard(const hazard& h) {
  m_checking = false; // one hazard per launch is enough: the rest of it runs unchecked
  if (m_job->race_reported.exchange(true)) {
    return;
  }
  const shared_place where =
      m_arena.locate(reinterpret_cast<const void*>(m_arena.begin() + h.offset));
  const std::string element =
      where.slot != nullptr ? " of " + element_name(*where.slot, where.byte_offset) : "";
  std::string message = "kernel " + std::string(m_job->site.kernel_name) + ", " + block_name() +
                        ": " + words_for(h.earlier.use).noun + element + " at " +
                        at_line(h.earlier.line) + " by " + thread_of_block(h.earlier.thread) +
                        " and " + words_for(h.later.use).noun + " at " + at_line(h.later.line) +
                        " by " + thread_of_block(h.later.thread) +
                        ", threads of different warps with no __syncthreads() between";
  emulator_state::instance().add_diagnostic(diagnostic_of(
      "race", std::move(message), h.later.thread, wait_site{m_job->site.file, h.later.line}));
}

} // namespace cugrade::emu::detail
