// Region forms at run time (regions.h): the registry of the loaded modules' forms, and a block
// runner running a block as its kernel's form, on the fiber of the block's first thread.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "cugrade_emu/regions.h"
#include "cugrade_emu_control.h"
#include "harness/emu/src/block_runner.h"

namespace cugrade::emu {
namespace detail {
namespace {

struct region_registry {
  std::mutex mutex;
  std::map<const void*, void*> forms;
};

region_registry& registry() {
  static region_registry* r = new region_registry; // outlives every module's registrations
  return *r;
}

std::atomic<bool>& regions_on() {
  static std::atomic<bool> on{[] {
    const char* value = std::getenv("CUGRADE_EMU_REGIONS");
    return value == nullptr || std::strcmp(value, "0") != 0;
  }()};
  return on;
}

std::atomic<std::uint64_t> g_last_region_blocks{0};

block_runner& running_runner() {
  return *static_cast<block_runner*>(t_ctx.runner);
}

} // namespace

region_registration::region_registration(const void* kernel, void* form) : m_kernel(kernel) {
  const std::lock_guard lock(registry().mutex);
  registry().forms[kernel] = form;
}

region_registration::~region_registration() {
  const std::lock_guard lock(registry().mutex);
  registry().forms.erase(m_kernel);
}

void* region_form_of(const void* kernel) {
  const std::lock_guard lock(registry().mutex);
  const auto found = registry().forms.find(kernel);
  return found == registry().forms.end() ? nullptr : found->second;
}

bool region_forms_enabled() {
  return regions_on().load(std::memory_order_relaxed);
}

void note_region_blocks(std::uint64_t blocks) {
  g_last_region_blocks.store(blocks, std::memory_order_relaxed);
}

const region_plan& region_plan_now() {
  return running_runner().plan();
}

void* region_frames(unsigned slot, std::size_t bytes) {
  return running_runner().frames(slot, bytes);
}

void block_runner::run_region_block() {
  const fiber_id owner = m_current;
  m_plan = {m_order, m_tid, m_count};
  m_in_regions = true;
  try {
    m_job->block_thunk(m_job->block_closure);
  } catch (...) {
    fail("launch_failure", "the kernel threw a C++ exception", current(), {},
         cudaErrorLaunchFailure, true);
  }
  m_in_regions = false;
  ++m_region_blocks;
  m_current = owner;
  t_ctx.thread_idx = m_tid[owner];
  // Every thread ran to its end.
  std::memset(m_state, static_cast<int>(fiber_state::done), m_count);
  m_live = m_ready = 0;
}

void* block_runner::frames(unsigned slot, std::size_t bytes) {
  if (slot >= m_frames.size()) {
    m_frames.resize(slot + 1);
  }
  frame_buffer& buffer = m_frames[slot];
  if (buffer.bytes < bytes) {
    const std::size_t rounded = (bytes + 63) / 64 * 64;
    buffer.data.reset(std::aligned_alloc(64, rounded));
    buffer.bytes = buffer.data ? rounded : 0;
    if (!buffer.data) {
      fail("launch_failure", "the emulator ran out of memory for a block's frames", current(), {},
           cudaErrorMemoryAllocation, true);
    }
  }
  return buffer.data.get();
}

void block_runner::fail_in_region(const char* what) {
  fail("launch_failure",
       std::string("the emulator's region form of this kernel reached ") + what +
           ", which it cannot run there (an emulator bug: CUGRADE_EMU_REGIONS=0 avoids it)",
       current(), {}, cudaErrorLaunchFailure, true);
}

block_runner::fiber_id block_runner::region_thread() const {
  const ::uint3 t = t_ctx.thread_idx;
  const ::uint3 b = m_job->block;
  return t.x + b.x * (t.y + b.y * t.z);
}

} // namespace detail

void set_region_forms(bool on) {
  detail::regions_on().store(on, std::memory_order_relaxed);
}

std::uint64_t last_launch_region_blocks() {
  return detail::g_last_region_blocks.load(std::memory_order_relaxed);
}

} // namespace cugrade::emu
