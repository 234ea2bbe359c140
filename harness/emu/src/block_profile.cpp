// What a profiled block's threads do to memory, handed to the warp profiler (warp_profile.h).
#include "harness/emu/src/block_runner.h"
#include "harness/emu/src/memory.h"

namespace cugrade::emu::detail {

void block_runner::profile_access(std::uintptr_t at, std::size_t bytes, profile_space space,
                                  shared_use use, int line) {
  const auto width = static_cast<unsigned>(bytes);
  switch (use) {
  case shared_use::read:
    m_profiler.record(m_current, at, width, space, profile_op::load, line,
                      space == profile_space::shared ? static_array_at(at) : 0);
    return;
  case shared_use::write:
    m_profiler.record(m_current, at, width, space, profile_op::store, line);
    return;
  case shared_use::update: // `a[i] += x`: a load, then a store
    m_profiler.record(m_current, at, width, space, profile_op::load, line);
    m_profiler.record(m_current, at, width, space, profile_op::store, line);
    return;
  case shared_use::atomic:
    break;
  }
  m_profiler.record(m_current, at, width, space, profile_op::atomic, line);
}

std::uintptr_t block_runner::static_array_at(std::uintptr_t at) const {
  const shared_place where = m_arena.locate(reinterpret_cast<const void*>(at));
  const bool declared = where.slot != nullptr && where.slot->key != nullptr;
  return declared ? reinterpret_cast<std::uintptr_t>(where.slot->base) : 0;
}

void block_runner::note_global(const volatile void* address, std::size_t bytes, shared_use use,
                               int line) {
  if (!m_profiling || m_current >= k_max) {
    return;
  }
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  if (in_device_buffer(at, bytes)) {
    profile_access(at, bytes, profile_space::global, use, line);
  }
}

bool block_runner::in_device_buffer(std::uintptr_t at, std::size_t bytes) {
  if (m_buffers.find(at, bytes) != nullptr) {
    return true;
  }
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  if (!device_memory::instance().buffer_around(reinterpret_cast<const void*>(at), bytes, begin,
                                               end)) {
    return false; // a thread's local array, a __constant__ or host address: not global memory
  }
  m_buffers.add({begin, end});
  return true;
}

} // namespace cugrade::emu::detail
