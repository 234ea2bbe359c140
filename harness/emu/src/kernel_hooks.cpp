// The functions rewritten kernel code calls (declared in include/cugrade_emu/*.h): each finds the
// OS thread's block runner through the thread context and forwards to it. Outside a kernel
// (host code calling a __device__ helper) they degrade to a single-thread meaning.
#include "cugrade_emu/device.h"
#include "cugrade_emu/shared.h"
#include "cugrade_emu/shared_access.h"
#include "harness/emu/src/atomic_contention.h"
#include "harness/emu/src/block_runner.h"

#include <cstdint>

namespace cugrade::emu::detail {
namespace {

block_runner* runner() {
  return static_cast<block_runner*>(t_ctx.runner);
}

} // namespace

std::uint64_t warp_exchange(warp_op op, unsigned mask, std::uint64_t value, int arg, int width,
                            const char* file, int line) {
  block_runner* r = runner();
  if (r == nullptr || t_ctx.fiber == nullptr) {
    return op == warp_op::ballot ? (value != 0 ? 1u : 0u) : value;
  }
  return r->warp_exchange(op, warp_request{op, mask, value, arg, width}, wait_site{file, line});
}

unsigned active_mask() {
  block_runner* r = runner();
  if (r != nullptr && r->in_regions()) [[unlikely]] {
    r->fail_in_region("__activemask()");
  }
  return r == nullptr || t_ctx.fiber == nullptr ? 1u : r->active_mask();
}

void yield_thread() {
  if (block_runner* r = runner(); r != nullptr && t_ctx.fiber != nullptr) {
    r->yield();
  }
}

void* shared_slot(const void* key, std::size_t size, std::size_t align,
                  const shared_array_info* info) {
  block_runner* r = runner();
  if (r == nullptr || t_ctx.fiber == nullptr) {
    // Host code touching __shared__ storage: nvcc rejects it; here it gets scratch memory.
    alignas(64) static thread_local std::byte host_scratch[48 * 1024];
    return size <= sizeof host_scratch ? host_scratch : nullptr;
  }
  return r->shared_slot(key, size, align, *info);
}

void* dynamic_shared_base(const char* name, const char* element, std::size_t element_size) {
  block_runner* r = runner();
  return r == nullptr ? nullptr : r->dynamic_shared(name, element, element_size);
}

void note_shared(const volatile void* address, std::size_t bytes, shared_use use, int line) {
  // Called only from a kernel (shared_access.h): the thread context has a runner.
  static_cast<block_runner*>(t_ctx.runner)->note_shared(address, bytes, use, line);
}

void note_reach(const volatile void* address, std::size_t bytes, shared_use use, int line) {
  static_cast<block_runner*>(t_ctx.runner)->note_reach(address, bytes, use, line);
}

void atomic_timed(const volatile void* address, unsigned long long started) {
  const std::uint64_t cycles = cycle_count() - started;
  t_ctx.atomic_countdown = atomic_contention::sample_period;
  block_runner* r = runner();
  // Shared memory is this worker's own: never contended.
  if (r != nullptr && t_ctx.fiber != nullptr && !in_block_shared(address)) {
    r->note_timed_atomic(reinterpret_cast<std::uintptr_t>(address), cycles);
  }
}

void* warp_update(void* address, std::size_t bytes) {
  block_runner* r = runner();
  return r == nullptr || t_ctx.fiber == nullptr ? address : r->warp_update(address, bytes);
}

void flush_update() {
  if (block_runner* r = runner(); r != nullptr) {
    r->flush_update();
  }
}

void check_placement(const volatile void* address, std::size_t bytes, std::size_t align, int line) {
  if (block_runner* r = runner(); r != nullptr && t_ctx.fiber != nullptr) {
    r->check_placement(reinterpret_cast<std::uintptr_t>(address), bytes, align, line);
  }
}

void warp_step() {
  if (block_runner* r = runner(); r != nullptr && t_ctx.fiber != nullptr) {
    r->warp_step();
  }
}

} // namespace cugrade::emu::detail
