#pragma once
/// \file
/// Runs the blocks of a launch on one OS thread. Every CUDA thread of a block is a fiber
/// (Boost.Context fcontext); fibers switch directly to one another, in the launch's schedule order,
/// whenever one waits at a barrier or a warp rendezvous, or exits. A thread that ends hands its
/// stack to the next thread that has not started, and the thread that ends a block goes on with
/// the next block on the same stack: blocks whose threads never wait cost no switch at all.
///
/// The runner also detects what a GPU would hang on or silently get wrong: barrier divergence
/// (a thread exits, or waits at another __syncthreads, while others wait) and warp rendezvous that
/// can never complete, which abort the block and the launch with a diagnostic; in the blocks the
/// launch checks, shared-memory accesses outside their array (out_of_bounds, aborting too) and
/// hazards between threads of different warps with no barrier between them (race, reported once
/// per launch, which runs on).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cugrade_emu/device.h"
#include "harness/emu/src/atomic_contention.h"
#include "harness/emu/src/context_switch.h"
#include "harness/emu/src/hazard_detector.h"
#include "harness/emu/src/launch_job.h"
#include "harness/emu/src/shared_arena.h"
#include "harness/emu/src/stack_pool.h"
#include "harness/emu/src/warp_profile.h"

namespace cugrade::emu::detail {

enum class fiber_state : std::uint8_t { fresh, ready, barrier, warp, step, done };

/// How a message says an access: "T[3] written at ...", "a write of T[3] at ...".
struct use_words {
  const char* participle;
  const char* noun;
};
use_words words_for(shared_use use);

/// A line of the student's code where a thread waits.
struct wait_site {
  const char* file = nullptr;
  int line = 0;
  [[nodiscard]] bool same_as(const wait_site& o) const;
};

struct warp_request {
  warp_op op = warp_op::sync;
  unsigned mask = 0;
  std::uint64_t value = 0;
  int arg = 0;
  int width = 32;
};

/// A read-modify-write not stored yet, of a device buffer or a one-warp block's shared memory
/// (warp_update.cpp): where, how many bytes (at most 8), and the value read and modified until
/// it is stored. Empty when `at` is null.
struct pending_store {
  void* at = nullptr;
  unsigned bytes = 0;
  alignas(8) unsigned char value[8] = {};

  void read() { std::memcpy(value, at, bytes); }
  /// Stores the value and empties the slot; nothing when empty.
  void store() {
    if (at != nullptr) {
      std::memcpy(at, value, bytes);
      at = nullptr;
    }
  }
};

/// Per-thread data off the hot path (the scheduler's hot state lives in dense arrays).
struct fiber_extra {
  int stack = -1;
  std::uint8_t parity = 0; ///< barrier phase it waits in (for __syncthreads_count results)
  warp_request request;
  wait_site warp_site;
  std::uint64_t result = 0;
  /// A read-modify-write taken with its warp (warp_update.cpp).
  pending_store update;
  bool update_read = false; ///< the value was read when the warp's step was released
};

struct warp_lanes {
  unsigned existing = 0; ///< lanes that belong to the block
  unsigned exited = 0;
  unsigned waiting = 0; ///< lanes waiting in a warp rendezvous
  /// Lanes that had exited when the warp last synchronised (rendezvous or block barrier): what
  /// __activemask() leaves out. Lanes that exit later, while the others run on one by one, still
  /// count as active, as they would in a converged warp on a GPU.
  unsigned exited_at_sync = 0;
  unsigned stepping = 0; ///< lanes waiting to take a volatile shared access together (warp_step)
};

class block_runner {
public:
  block_runner();

  /// Runs blocks of the job, claiming them a chunk at a time, until none is left or the job is
  /// aborted (the job then holds the failure).
  void run_blocks(launch_job& job);

  // Called by kernel code on the running fiber.
  int sync_threads(sync_kind kind, int predicate, wait_site site);
  std::uint64_t warp_exchange(warp_op op, const warp_request& request, wait_site site);
  [[nodiscard]] unsigned active_mask() const;
  /// A volatile access to shared memory by the running thread: its warp's lanes take it in step.
  void warp_step();
  /// A read-modify-write (`bins[x]++`, `sum[0] += v`) of `bytes` at `address` in a checked
  /// block: when it lies in a device buffer, the thread's warp reads it together, as a warp does
  /// on a GPU, and the thread gets its own copy to modify, stored at its next access or switch
  /// (flush_update). Elsewhere (a local array), the address itself.
  void* warp_update(void* address, std::size_t bytes);
  void flush_update();
  /// A thread that exits with its update not yet stored leaves the store to this worker, which
  /// makes it after its next read-modify-write has read (or when it leaves the launch): another
  /// block's update of the same element lands between, as blocks running at once let it on a
  /// GPU (warp_update.cpp).
  void defer_update();
  void yield();
  void* shared_slot(const void* key, std::size_t size, std::size_t align,
                    const shared_array_info& info);
  void* dynamic_shared(const char* name, const char* element, std::size_t element_size);
  /// An access to the block's shared memory by the running thread (checked blocks only): inside
  /// one of the arrays accessed lately it goes straight to the hazard detector.
  void note_shared(const volatile void* address, std::size_t bytes, shared_use use, int line) {
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    if (!m_hot[0].holds(at, bytes) && !m_hot[1].holds(at, bytes) &&
        !place_access(at, bytes, use, line)) [[unlikely]] {
      return;
    }
    if (m_checking && m_hazards.access(at - m_arena.begin(), address, bytes, use, m_current, line))
        [[unlikely]] {
      report_hazard(m_hazards.found());
    }
    if (m_profiling) [[unlikely]] {
      profile_access(at, bytes, profile_space::shared, use, line);
    }
  }
  /// A checked access outside shared memory and the memory reached lately (t_ctx.reach): memory
  /// a kernel may reach becomes t_ctx.reach (or, profiling, is counted: note_global); host
  /// memory ends the launch (memory_reach.cpp).
  void note_reach(const volatile void* address, std::size_t bytes, shared_use use, int line);
  /// An access outside shared memory while profiling: counted when it is in a device buffer.
  void note_global(const volatile void* address, std::size_t bytes, shared_use use, int line);
  /// A timed global atomic (atomic_timed): weighs whether the launch's atomics are contended.
  void note_timed_atomic(std::uintptr_t address, std::uint64_t cycles) {
    m_contention.note(address, cycles);
  }
  /// The running block as its kernel's region form walks it (regions.h).
  [[nodiscard]] const region_plan& plan() const { return m_plan; }
  /// Storage for a region form's frames (region_frames in regions.h).
  void* frames(unsigned slot, std::size_t bytes);
  /// A region form reached what only fibers can run: ends the launch (an emulator bug; the
  /// rewriter gives no form to a kernel that can).
  [[noreturn]] void fail_in_region(const char* what);
  [[nodiscard]] bool in_regions() const { return m_in_regions; }
  /// The running thread: in a region form, the one whose threadIdx is set.
  [[nodiscard]] unsigned current() const { return m_in_regions ? region_thread() : m_current; }
  /// Blocks this worker has started (the watchdog's counter).
  [[nodiscard]] std::uint64_t blocks_started() const {
    return m_started->load(std::memory_order_relaxed);
  }
  /// An assert() that failed in the running thread: ends the launch with a sticky
  /// cudaErrorAssert (device_assert), as a GPU's device-side assert does.
  [[noreturn]] void fail_assert(const char* assertion, const char* file, int line);
  /// An access of `bytes` at `at` by the running thread, whose type is aligned to `align`: ends
  /// the launch with a sticky cudaErrorMisalignedAddress (misaligned_address) unless the address
  /// is aligned as it would be on a GPU. `line` 0: the line is unknown.
  void check_placement(std::uintptr_t at, std::size_t bytes, std::size_t align, int line) {
    if (at - m_placed_begin < m_placed_end - m_placed_begin) {
      if (((at - m_placed_begin) & (align - 1)) == 0) [[likely]] {
        return;
      }
    } else if ((at >> 12) == m_unplaced_page && (at & (align - 1)) == 0) [[likely]] {
      return;
    } else if (placed_aligned(at, align)) {
      return;
    }
    fail_misaligned(at, bytes, align, line);
  }

private:
  using fiber_id = unsigned;
  static constexpr fiber_id k_max = 1024;
  static constexpr fiber_id k_scheduler = k_max; ///< the worker's own stack
  static constexpr fiber_id k_dead = k_max + 1;  ///< "from" of a switch by an exiting fiber
  static constexpr fiber_id k_none = k_max + 2;

  static void fiber_main(fctx::transfer_t t);
  [[noreturn]] void run_current();
  /// Runs the whole block as its kernel's region form, on the running fiber (region_blocks.cpp).
  void run_region_block();
  [[nodiscard]] fiber_id region_thread() const;
  /// Retires the running thread; returns who runs next.
  fiber_id exit_current();
  /// The next block of the job for this worker, if any is left.
  bool claim_block(std::uint64_t& block);
  /// At a chunk's end: whether the launch's atomics are contended, and if so, unless this is the
  /// lead worker, waits while the lead keeps starting blocks (atomic_contention.h).
  void yield_to_lead_if_contended();
  /// Ends the finished block and sets up the next one; false when there is none.
  bool next_block();

  void setup(std::uint64_t block_linear);
  void start_checks(std::uint64_t block_linear);
  [[nodiscard]] bool checked_block(std::uint64_t b);
  void fill_order(std::uint64_t block_linear);
  void reclaim_stacks();
  [[nodiscard]] bool runnable(fiber_id f) const {
    return m_state[f] <= fiber_state::ready ||
           (m_state[f] == fiber_state::barrier && m_gen[f] != m_barrier_gen);
  }
  /// The next fiber to run: the next one in schedule order that can, else a sweep (pick_more).
  fiber_id pick_next() {
    if (m_pos < m_count) {
      const fiber_id f = m_order[m_pos];
      if (runnable(f)) {
        ++m_pos;
        return f;
      }
    }
    return pick_more();
  }
  fiber_id pick_more();
  void give_stack(fiber_id to);
  [[nodiscard]] int barrier_result(sync_kind kind, fiber_id self) const;
  void switch_away(fiber_id self);
  void resume(fiber_id from, fiber_id to);
  /// resume(), saving the running context in *save.
  void resume_from(fctx::fcontext_t* save, fiber_id to);

  void release_barrier();
  /// Judges the running thread's pending shared-memory write: before another thread runs.
  void settle_shared() {
    if (t_ctx.update_pending) [[unlikely]] {
      flush_update();
    }
    if (m_checking && m_hazards.settle()) [[unlikely]] {
      report_hazard(m_hazards.found());
    }
  }
  void report_hazard(const hazard& h);
  /// The first byte of the static `__shared__` array holding `at`; 0 for dynamic shared memory.
  [[nodiscard]] std::uintptr_t static_array_at(std::uintptr_t at) const;
  void profile_access(std::uintptr_t at, std::size_t bytes, profile_space space, shared_use use,
                      int line);
  bool place_access(std::uintptr_t at, std::size_t bytes, shared_use use, int line);
  [[noreturn]] void fail_out_of_bounds(const shared_place& where, shared_use use, int line);
  void try_complete(unsigned warp, unsigned mask);
  /// Lets the lanes waiting in warp_step go on once no other lane of the warp can still arrive.
  void try_step(unsigned warp);
  /// Lets them go on now.
  void release_step(unsigned warp);
  /// Whether [at, at + bytes) lies in a device buffer (not a local array, a __constant__ or host
  /// memory); the buffers found lately are kept in m_buffers.
  bool in_device_buffer(std::uintptr_t at, std::size_t bytes);
  /// Whether a kernel may reach `at` (memory_reach.cpp), and the range around it that it may:
  /// a device buffer, a chunk of fiber stacks, pinned or device-allocated host memory, a
  /// module's segment. The ranges found lately are kept in m_reached.
  bool reachable(std::uintptr_t at, std::uintptr_t& begin, std::uintptr_t& end);
  /// Whether [at, at + bytes) lies in a loaded module's segment, where a __device__ variable is
  /// (memory_reach.cpp): global memory that every thread shares, as a device buffer is. A
  /// thread's local array is not; the modules' segments found lately are kept in m_variables.
  bool in_device_variable(std::uintptr_t at, std::size_t bytes);
  [[noreturn]] void fail_host_memory(std::uintptr_t at, std::size_t bytes, shared_use use,
                                     int line);
  void on_lane_exit(fiber_id f) {
    warp_lanes& w = m_warps[f / 32];
    w.exited |= 1u << (f % 32);
    // The exit may be what a waiting rendezvous, or a step, was waiting for.
    if ((w.waiting | w.stepping) != 0) [[unlikely]] {
      complete_after_exit(f / 32);
    }
  }
  void complete_after_exit(unsigned warp);
  /// What a rendezvous's lanes share, computed for the first lane that needs it.
  struct group_values {
    bool have_votes = false;
    unsigned votes = 0;
    bool have_reduction = false;
    warp_op reduction_op = warp_op::sync;
    std::uint32_t reduction = 0;
  };
  [[nodiscard]] std::uint64_t lane_result(fiber_id f, unsigned group, unsigned base,
                                          group_values& values) const;

  // Failures: record one diagnostic for the launch and abandon the block.
  [[noreturn]] void fail(const char* kind, const std::string& message, fiber_id who,
                         wait_site where, cudaError_t error, bool sticky);
  [[noreturn]] void fail_as(diagnostic d, cudaError_t error, bool sticky);
  [[nodiscard]] diagnostic diagnostic_of(const char* kind, std::string message, fiber_id who,
                                         wait_site where) const;
  [[noreturn]] void fail_other_barrier(fiber_id arriver, wait_site site);
  /// Whether `at` is aligned to `align` as on a GPU: by its offset into the device buffer that
  /// holds it (which check_placement then measures from), or where no buffer holds it (shared
  /// memory, a local or global variable), by its address (its page is then remembered).
  bool placed_aligned(std::uintptr_t at, std::size_t align);
  [[noreturn]] void fail_misaligned(std::uintptr_t at, std::size_t bytes, std::size_t align,
                                    int line);
  void report_stuck();
  [[nodiscard]] std::string where_waits(fiber_id f) const;
  [[nodiscard]] std::string prefix(fiber_id f) const;
  [[nodiscard]] std::string thread_of_block(unsigned thread) const;
  [[nodiscard]] std::string block_name() const;
  [[nodiscard]] std::string at_line(int line) const;

  // The device buffer the running thread's last checked access was in, [begin, end): a GPU
  // places a buffer at a multiple of 256 bytes, the emulator flush with its rear guard page, so
  // an access is aligned as on a GPU when its offset into the buffer is.
  std::uintptr_t m_placed_begin = 0;
  std::uintptr_t m_placed_end = 0;
  std::uintptr_t m_unplaced_page = 0; ///< a page no device buffer is in (address >> 12)

  stack_pool m_stacks;
  // Hot state, one dense array per field, so a barrier touches few cache lines. Plain arrays
  // in the (heap-allocated) runner: an element is one load off `this`, with no vector's data
  // pointer to reload after every store.
  fctx::fcontext_t m_context[k_max + 2]{}; ///< k_max + 2 (scheduler, dead)
  fiber_state m_state[k_max]{};
  unsigned m_gen[k_max]{}; ///< barrier generation a waiting fiber waits in
  ::uint3 m_tid[k_max]{};
  fiber_extra m_extra[k_max]{};
  unsigned m_order[k_max]{};
  unsigned m_order_count = 0;                             ///< threads m_order was filled for
  schedule_order m_order_kind = schedule_order::shuffled; ///< what m_order holds
  ::uint3 m_tid_shape{0, 0, 0};                           ///< block shape m_tid was computed for
  warp_lanes m_warps[k_max / 32]{};
  /// Fibers whose thread ended, parked with their stacks to start threads that have not yet.
  struct idle_fiber {
    fctx::fcontext_t context = nullptr;
    int stack = -1;
  };
  idle_fiber m_idle[k_max]{};
  unsigned m_idle_count = 0;
  fiber_id m_current = k_none;
  int m_pending_stack = -1; ///< stack of an exited fiber, freed once off it

  launch_job* m_job = nullptr;
  std::uint64_t m_block_linear = 0;
  bool m_block_idx_valid = false; ///< m_block_idx is m_block_linear's (the next one is found by +1)
  std::uint64_t m_sample_block = ~std::uint64_t{1}; ///< the last block checked_block() saw
  std::uint64_t m_sample_phase = 0;                 ///< its index modulo the sample's stride
  std::uint64_t m_chunk_next = 0;                   ///< blocks claimed and not yet run: [next, end)
  std::uint64_t m_chunk_end = 0;
  std::uint64_t m_blocks_run = 0;        ///< since the last report to the job's count
  std::atomic<std::uint64_t>* m_started; ///< blocks started: the watchdog's sign of progress
  atomic_contention m_contention;
  pending_store m_deferred; ///< an exited thread's update, stored late (defer_update)
  ::uint3 m_block_idx{};
  unsigned m_count = 0;
  unsigned m_pos = 0;
  unsigned m_live = 0;
  unsigned m_ready = 0;
  unsigned m_at_barrier = 0;
  unsigned m_barrier_gen = 0;
  wait_site m_barrier_site;
  std::uint8_t m_parity = 0;
  unsigned m_predicate_sum = 0;
  unsigned m_predicate_result[2] = {0, 0};
  unsigned m_live_at_release[2] = {0, 0};
  fiber_id m_first_waiter = k_none;
  bool m_aborted = false;

  shared_arena m_arena;
  hazard_detector m_hazards{shared_arena::reserved_bytes};
  bool m_checking = false; ///< this block is checked for hazards
  bool m_regions = false;  ///< this block runs as its kernel's region form
  bool m_in_regions = false;         ///< ... and is running it now
  std::uint64_t m_region_blocks = 0; ///< this launch's blocks run as region forms here
  region_plan m_plan;
  struct frame_buffer {
    struct release {
      void operator()(void* p) const { std::free(p); }
    };
    std::unique_ptr<void, release> data;
    std::size_t bytes = 0;
  };
  std::vector<frame_buffer> m_frames; ///< per frame slot of a region form
  /// The two arrays accessed last in this block, [begin, end): most accesses are inside them.
  struct hot_range {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    [[nodiscard]] bool holds(std::uintptr_t at, std::size_t bytes) const {
      return at >= begin && at + bytes <= end;
    }
  };
  hot_range m_hot[2];
  /// N ranges found lately, the oldest replaced first.
  template <unsigned N> struct recent_ranges {
    hot_range ranges[N];
    unsigned next = 0;
    [[nodiscard]] const hot_range* find(std::uintptr_t at, std::size_t bytes) const {
      for (const hot_range& r : ranges) {
        if (r.holds(at, bytes)) {
          return &r;
        }
      }
      return nullptr;
    }
    void add(hot_range r) { ranges[next++ % N] = r; }
    void clear() { *this = {}; }
  };
  std::uint64_t m_block_serial = 0; ///< blocks run by this worker: stamps garbage fills
  std::size_t m_static_used = 0;    ///< static shared bytes this block declared so far
  shared_slot_record* m_dynamic = nullptr;
  std::uint64_t m_garbage_seed = 0;

  // Profiling (launch_job::profile): the warps' requests, and the device buffers seen lately.
  bool m_profiling = false;
  warp_profiler m_profiler;
  recent_ranges<4> m_buffers;
  recent_ranges<8> m_reached;   ///< memory a kernel may reach, found lately (reachable)
  recent_ranges<4> m_variables; ///< modules' segments found lately (in_device_variable)
  hot_range m_last_stack;       ///< the chunk of fiber stacks a read-modify-write was in lately
};

/// Fills memory with a garbage pattern: large values of both signs, never zero, NaN or Inf.
void fill_garbage(void* p, std::size_t bytes, std::uint64_t seed);

} // namespace cugrade::emu::detail
