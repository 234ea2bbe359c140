#include "harness/emu/src/block_runner.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "harness/emu/src/context_switch.h"
#include "harness/emu/src/device_limits.h"
#include "harness/emu/src/watchdog.h"

namespace cugrade::emu::detail {

// Shared by kernel code (as threadIdx & co.) and the fault handler.
__thread thread_context t_ctx __attribute__((tls_model("initial-exec")));

namespace {

static_assert(limits::max_threads_per_block == 1024);

} // namespace

bool wait_site::same_as(const wait_site& o) const {
  return line == o.line && (file == o.file || (file && o.file && std::strcmp(file, o.file) == 0));
}

block_runner::block_runner() : m_started(watchdog_progress_counter()) {}

void block_runner::run_blocks(launch_job& job) {
  m_job = &job;
  m_block_idx_valid = false;
  m_sample_block = ~std::uint64_t{1}; // no block follows it: the first one finds its phase
  m_chunk_next = m_chunk_end = 0;
  m_blocks_run = 0;
  m_contention.begin_launch();
  t_ctx.atomic_countdown = atomic_contention::sample_period;
  t_ctx.runner = this;
  t_ctx.kernel_name = job.site.kernel_name;
  m_profiling = job.profile;
  m_profiler.clear();
  m_buffers.clear();
  m_reached.clear();
  m_variables.clear();
  t_ctx.reach[0] = t_ctx.reach[1] = {};
  // Buffers may have been freed and others allocated since the last launch.
  m_placed_begin = m_placed_end = m_unplaced_page = 0;
  std::uint64_t block = 0;
  // Normally once: the fibers go on from block to block, and come back here when the job has
  // no block left for this worker, or when a block was abandoned.
  while (!m_aborted && !job.aborted.load(std::memory_order_relaxed) && claim_block(block)) {
    setup(block);
    const fiber_id first = pick_next();
    if (first != k_scheduler) {
      resume(k_scheduler, first);
    }
    // Back on the worker's own stack.
    if (m_pending_stack >= 0) {
      m_stacks.release(m_pending_stack);
      m_pending_stack = -1;
    }
    t_ctx.fiber = nullptr;
    m_current = k_none;
    if (m_aborted) {
      reclaim_stacks();
    } else {
      ++m_blocks_run;
    }
  }
  m_deferred.store(); // the launch's stores are all made when it returns
  job.blocks_done.fetch_add(m_blocks_run, std::memory_order_relaxed);
  job.region_blocks.fetch_add(m_region_blocks, std::memory_order_relaxed);
  m_region_blocks = 0;
  m_blocks_run = 0;
  if (m_profiling) {
    job.profile_counts.add(m_profiler);
    m_profiling = false;
  }
  while (m_idle_count > 0) { // parked fibers are abandoned, their stacks given back
    m_stacks.release(m_idle[--m_idle_count].stack);
  }
  m_aborted = false;
  m_checking = false;
  m_in_regions = false;
  t_ctx.check_shared = false;
  t_ctx.runner = nullptr;
}

bool block_runner::claim_block(std::uint64_t& block) {
  if (m_chunk_next == m_chunk_end) {
    if (m_blocks_run > 0) { // what the watchdog reads as progress
      m_job->blocks_done.fetch_add(m_blocks_run, std::memory_order_relaxed);
      m_blocks_run = 0;
    }
    yield_to_lead_if_contended();
    const std::uint64_t first =
        m_job->next_block.fetch_add(m_job->chunk, std::memory_order_relaxed);
    if (first >= m_job->total_blocks) {
      return false;
    }
    m_chunk_next = first;
    m_chunk_end = std::min(first + m_job->chunk, m_job->total_blocks);
  }
  block = m_chunk_next++;
  return true;
}

void block_runner::yield_to_lead_if_contended() {
  launch_job& job = *m_job;
  if (job.lead == nullptr) { // one worker: nothing to contend with
    return;
  }
  if (!job.contended.load(std::memory_order_relaxed)) {
    if (!m_contention.costly()) {
      return;
    }
    job.contended.store(true, std::memory_order_relaxed);
  }
  if (job.lead == this) {
    return;
  }
  std::uint64_t seen = job.lead->blocks_started();
  constexpr int stalled_polls = 50; // a millisecond each
  int still = 0;
  while (still < stalled_polls && !job.aborted.load(std::memory_order_relaxed) &&
         job.next_block.load(std::memory_order_relaxed) < job.total_blocks) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const std::uint64_t now = job.lead->blocks_started();
    still = now == seen ? still + 1 : 0;
    seen = now;
  }
  m_contention.begin_launch(); // a stalled lead: claim again, and measure afresh
}

// On the fiber of the thread that finished a block: the next block runs on the same stack.
bool block_runner::next_block() {
  ++m_blocks_run;
  std::uint64_t block = 0;
  if (m_job->aborted.load(std::memory_order_relaxed) || !claim_block(block)) {
    --m_blocks_run; // counted by run_blocks, once back on the worker's stack
    return false;
  }
  setup(block);
  return true;
}

void block_runner::setup(std::uint64_t block_linear) {
  const launch_job& job = *m_job;
  const ::uint3 g = job.grid;
  const ::uint3 b = job.block;
  if (block_linear == m_block_linear + 1 && m_block_idx_valid) { // the next in a chunk
    if (++m_block_idx.x == g.x) {
      m_block_idx.x = 0;
      if (++m_block_idx.y == g.y) {
        m_block_idx.y = 0;
        ++m_block_idx.z;
      }
    }
  } else {
    m_block_idx = {static_cast<unsigned>(block_linear % g.x),
                   static_cast<unsigned>(block_linear / g.x % g.y),
                   static_cast<unsigned>(block_linear / (std::uint64_t{g.x} * g.y))};
    m_block_idx_valid = true;
  }
  m_block_linear = block_linear;
  t_ctx.block_idx = m_block_idx;
  t_ctx.block_dim = b;
  t_ctx.grid_dim = g;
  m_count = job.threads_per_block;
  if (b.x != m_tid_shape.x || b.y != m_tid_shape.y || b.z != m_tid_shape.z) {
    // Thread coordinates depend only on the block's shape: computed once per shape.
    for (fiber_id i = 0; i < m_count; ++i) {
      m_tid[i] = {i % b.x, i / b.x % b.y, i / (b.x * b.y)};
    }
    m_tid_shape = b;
  }
  // Every stack of the last block was given back (or handed on) as its thread ended; m_gen
  // matters only for a thread waiting at a barrier, which sets it.
  std::memset(m_state, static_cast<int>(fiber_state::fresh), m_count);
  const unsigned warps = (m_count + 31) / 32;
  for (unsigned w = 0; w < warps; ++w) {
    const unsigned lanes = m_count - w * 32 >= 32 ? 32 : m_count - w * 32;
    m_warps[w] = {lanes == 32 ? ~0u : (1u << lanes) - 1u, 0u, 0u, 0u, 0u};
  }
  m_pos = 0;
  m_live = m_ready = m_count;
  m_at_barrier = m_barrier_gen = m_predicate_sum = 0;
  m_parity = 0;
  m_first_waiter = k_none;
  m_aborted = false;
  m_static_used = 0;
  t_ctx.block_serial = ++m_block_serial;
  m_started->store(m_started->load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  m_garbage_seed = job.serial * 0x9E3779B97F4A7C15ull ^ (block_linear + 1);
  m_dynamic = nullptr;
  if (job.dynamic_shared > 0) {
    m_dynamic = m_arena.dynamic_slot(job.dynamic_shared);
    if (m_dynamic != nullptr) {
      fill_garbage(m_dynamic->base, job.dynamic_shared, m_garbage_seed ^ 0xD1Bull);
    }
  }
  start_checks(block_linear);
  fill_order(block_linear);
  m_regions = m_job->block_thunk != nullptr && !t_ctx.check_shared && !m_profiling;
  m_in_regions = false;
}

// Whether block b is one the checks look at (launch_job::checked_block), without a division for
// the blocks of a chunk after its first.
bool block_runner::checked_block(std::uint64_t b) {
  const launch_job& job = *m_job;
  if (job.total_blocks <= launch_job::all_checked_up_to || job.profile) {
    return true;
  }
  if (b != m_sample_block + 1) {
    m_sample_phase = b % job.sample_stride();
  } else if (++m_sample_phase == job.sample_stride()) {
    m_sample_phase = 0;
  }
  m_sample_block = b;
  return m_sample_phase == 0 || b < launch_job::checked_first ||
         b + launch_job::checked_last >= job.total_blocks;
}

void block_runner::start_checks(std::uint64_t block_linear) {
  t_ctx.shared_begin = m_arena.begin();
  t_ctx.shared_bytes = m_arena.used_bytes();
  t_ctx.check_shared = m_job->check_shared && checked_block(block_linear);
  m_hot[0] = m_hot[1] = {}; // the dynamic region may have moved
  m_checking = t_ctx.check_shared && !m_job->race_reported.load(std::memory_order_relaxed);
  if (m_checking) {
    m_hazards.new_block();
  }
  if (m_profiling) {
    m_profiler.begin_block(m_count);
  }
}

void block_runner::fill_order(std::uint64_t block_linear) {
  const schedule_choice s = m_job->schedule;
  if (s.order != schedule_order::shuffled && m_order_count == m_count && m_order_kind == s.order) {
    return; // forward and reverse depend only on the thread count
  }
  m_order_kind = s.order;
  m_order_count = m_count;
  for (unsigned i = 0; i < m_count; ++i) {
    m_order[i] = s.order == schedule_order::reverse ? m_count - 1 - i : i;
  }
  if (s.order != schedule_order::shuffled) {
    return;
  }
  // splitmix64 over (seed, block): a different permutation per block, reproducible per seed.
  std::uint64_t state = s.seed ^ (block_linear * 0xBF58476D1CE4E5B9ull);
  for (unsigned i = m_count; i > 1; --i) {
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    std::swap(m_order[i - 1], m_order[z % i]);
  }
}

void block_runner::reclaim_stacks() {
  for (fiber_id i = 0; i < m_count; ++i) {
    if (m_extra[i].stack >= 0) {
      m_stacks.release(m_extra[i].stack);
      m_extra[i].stack = -1;
    }
  }
}

__attribute__((noinline)) block_runner::fiber_id block_runner::pick_more() {
  for (int sweeps = 0; sweeps < 3; ++sweeps) {
    while (m_pos < m_count) {
      const fiber_id f = m_order[m_pos++];
      if (runnable(f)) {
        return f;
      }
    }
    if (m_live == 0 || m_aborted) {
      return k_scheduler;
    }
    if (m_job->aborted.load(std::memory_order_relaxed)) {
      m_aborted = true; // another block failed: stop this one too
      return k_scheduler;
    }
    if (m_ready == 0) {
      report_stuck();
      return k_scheduler;
    }
    m_pos = 0;
  }
  report_stuck();
  return k_scheduler;
}

// Switches from the running fiber (or the scheduler) to `to`. Everything `to` needs is set up
// here, by the switcher, so that a resumed fiber can return straight into the kernel.
void block_runner::resume(fiber_id from, fiber_id to) {
  resume_from(&m_context[from], to);
}

void block_runner::resume_from(fctx::fcontext_t* save, fiber_id to) {
  if (m_pending_stack >= 0) [[unlikely]] { // an exited fiber's stack; we are on another one now
    m_stacks.release(m_pending_stack);
    m_pending_stack = -1;
  }
  if (to == k_scheduler) [[unlikely]] {
    t_ctx.fiber = nullptr;
  } else {
    if (m_state[to] == fiber_state::fresh) [[unlikely]] {
      if (m_idle_count > 0) { // a parked fiber runs it
        const idle_fiber& idle = m_idle[--m_idle_count];
        m_extra[to].stack = idle.stack;
        m_context[to] = idle.context;
      } else {
        give_stack(to);
      }
    }
    m_state[to] = fiber_state::ready;
    if (m_pos < m_count) {
      // The next fiber in schedule order most likely runs after `to`: start loading its saved
      // registers and the frames above them now.
      const auto* frame = static_cast<const char*>(m_context[m_order[m_pos]]);
      __builtin_prefetch(frame);
      __builtin_prefetch(frame + 64);
      __builtin_prefetch(frame + 128);
      __builtin_prefetch(frame + 192);
    }
    m_current = to;
    t_ctx.fiber = &m_extra[to];
    t_ctx.thread_idx = m_tid[to];
  }
  swap_context(save, m_context[to], this);
}

// A thread that has not started gets a stack and a context that starts in fiber_main.
__attribute__((noinline)) void block_runner::give_stack(fiber_id to) {
  const int stack = m_stacks.acquire();
  m_extra[to].stack = stack;
  m_context[to] =
      fctx::make_fcontext(m_stacks.top(stack), m_stacks.usable(stack), &block_runner::fiber_main);
}

void block_runner::switch_away(fiber_id self) {
  const fiber_id next = pick_next();
  if (next != self) {
    resume(self, next);
  } else {
    m_state[self] = fiber_state::ready;
  }
}

void block_runner::fiber_main(fctx::transfer_t t) {
  finish_first_switch(t);
  static_cast<block_runner*>(t.data)->run_current();
}

// Runs threads on this fiber's stack until one has to switch away. When a thread ends and the
// next one to run has not started yet, the next one simply runs here too; when it ends the
// block, the next block's first thread does: blocks whose threads never wait cost no context
// switch at all.
void block_runner::run_current() {
  for (;;) {
    fiber_id next = k_scheduler;
    if (m_regions) {
      run_region_block(); // every thread of the block: none is left to run
    } else {
      try {
        m_job->thunk(m_job->closure);
      } catch (...) {
        fail("launch_failure", "the kernel threw a C++ exception", m_current, {},
             cudaErrorLaunchFailure, true);
      }
      next = exit_current();
    }
    const fiber_id self = m_current;
    const int stack = m_extra[self].stack;
    m_extra[self].stack = -1;
    if (next == k_scheduler && m_live == 0 && !m_aborted && next_block()) {
      next = pick_next();
    }
    if (next == k_scheduler || m_idle_count == k_max) {
      m_pending_stack = stack;
      resume(k_dead, next);
      __builtin_unreachable();
    }
    if (m_state[next] != fiber_state::fresh) {
      // Park: this fiber, stack and all, starts a thread that has not started yet, later, for
      // the price of a switch (resume() hands it out before making a new context).
      idle_fiber& idle = m_idle[m_idle_count++];
      idle.stack = stack;
      resume_from(&idle.context, next);
      continue; // resumed as a fresh thread: m_current is that thread now
    }
    m_extra[next].stack = stack;
    m_state[next] = fiber_state::ready;
    m_current = next;
    t_ctx.fiber = &m_extra[next];
    t_ctx.thread_idx = m_tid[next];
  }
}

block_runner::fiber_id block_runner::exit_current() {
  const fiber_id self = m_current;
  defer_update();
  settle_shared();
  m_state[self] = fiber_state::done;
  --m_live;
  --m_ready;
  if (m_live == 0 && m_profiling) [[unlikely]] {
    m_profiler.flush();
  }
  // A barrier waits for the threads that have not exited (the PTX ISA's barrier, what a GPU of
  // compute capability 7.0 and later does): this exit may be the last arrival it waited for.
  if (m_at_barrier > 0 && m_at_barrier == m_live) {
    release_barrier();
  }
  on_lane_exit(self);
  return pick_next();
}

int block_runner::sync_threads(sync_kind kind, int predicate, wait_site site) {
  if (m_in_regions) [[unlikely]] {
    fail_in_region("__syncthreads()");
  }
  const fiber_id self = m_current;
  settle_shared();
  if (m_at_barrier == 0) {
    m_first_waiter = self;
    m_barrier_site = site;
  } else if (site.line != m_barrier_site.line || site.file != m_barrier_site.file) [[unlikely]] {
    if (!site.same_as(m_barrier_site)) {
      fail_other_barrier(self, site);
    }
  }
  m_state[self] = fiber_state::barrier;
  m_gen[self] = m_barrier_gen;
  --m_ready;
  if (kind != sync_kind::plain) [[unlikely]] {
    m_extra[self].parity = m_parity;
    m_predicate_sum += predicate != 0 ? 1u : 0u;
  }
  if (m_warps[self / 32].stepping != 0) [[unlikely]] { // lanes of its warp wait for it no more
    try_step(self / 32);
  }
  if (++m_at_barrier == m_live) {
    release_barrier();
  }
  switch_away(self);
  return kind == sync_kind::plain ? 0 : barrier_result(kind, self);
}

// What __syncthreads_count, _and and _or return to `self`, from the barrier it waited at.
__attribute__((noinline)) int block_runner::barrier_result(sync_kind kind, fiber_id self) const {
  const unsigned parity = m_extra[self].parity;
  const unsigned count = m_predicate_result[parity];
  if (kind == sync_kind::count) {
    return static_cast<int>(count);
  }
  return kind == sync_kind::all ? (count == m_live_at_release[parity] ? 1 : 0)
                                : (count > 0 ? 1 : 0);
}

__attribute__((noinline)) void block_runner::release_barrier() {
  m_predicate_result[m_parity] = m_predicate_sum;
  m_live_at_release[m_parity] = m_live;
  m_parity ^= 1u;
  m_predicate_sum = 0;
  m_ready += m_at_barrier;
  m_at_barrier = 0;
  ++m_barrier_gen;
  m_pos = 0;
  if (m_checking) {
    m_hazards.new_interval();
  }
  if (m_profiling) [[unlikely]] {
    m_profiler.flush();
  }
  for (unsigned w = 0; w < (m_count + 31) / 32; ++w) {
    m_warps[w].exited_at_sync = m_warps[w].exited;
  }
}

void block_runner::yield() {
  if (m_in_regions) [[unlikely]] {
    fail_in_region("a wait for another thread (a spin on an atomic)");
  }
  if (m_current != k_none) {
    settle_shared();
    // A lane that spins waits for something else: its warp's step goes on without it (it may be
    // waiting for a lane of that step).
    if (m_warps[m_current / 32].stepping != 0) [[unlikely]] {
      release_step(m_current / 32);
    }
    switch_away(m_current);
  }
}

// The barrier entry (see barrier_entry.cpp), flattened so the barrier's common path is one frame;
// its rare paths (a fresh thread's stack, the release, failures) stay out of line.
extern "C" __attribute__((visibility("hidden"), flatten)) int
cugrade_emu_sync_threads_impl(sync_kind kind, int predicate, const char* file, int line) {
  auto* runner = static_cast<block_runner*>(t_ctx.runner);
  if (runner == nullptr || t_ctx.fiber == nullptr) {
    return predicate;
  }
  return runner->sync_threads(kind, predicate, wait_site{file, line});
}

void fill_garbage(void* p, std::size_t bytes, std::uint64_t seed) {
  std::uint64_t x = seed | 1u;
  auto* out = static_cast<unsigned char*>(p);
  // Exponent fixed near 2^27 and a random sign: as floats about +-1e8, as ints about +-1.3e9.
  // Two words per step of the generator.
  constexpr std::uint64_t pattern = 0x4D0000004D000000ull;
  constexpr std::uint64_t keep = 0x80FFFFFF80FFFFFFull;
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const std::uint64_t words = pattern | (x & keep);
    std::memcpy(out + i, &words, 8);
  }
  if (i < bytes) {
    x ^= x << 13;
    const std::uint64_t words = pattern | (x & keep);
    std::memcpy(out + i, &words, bytes - i);
  }
}

} // namespace cugrade::emu::detail
