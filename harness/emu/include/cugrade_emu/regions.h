#pragma once
/// \file
/// What a kernel's region form calls (docs/emulation.md, "Region forms"; the rewriter writes
/// the form: harness/emu/detail/region_forms.cpp). A block the checks do not look at runs its
/// kernel's region form once, on one fiber: each stretch of code between two __syncthreads()
/// runs for every thread of the block in the launch's schedule order (region_each), which is the
/// order the fibers would have taken; what a later stretch uses of an earlier one's locals is
/// kept per thread in a frame (region_collect).

#include <cstddef>
#include <new>
#include <tuple>
#include <type_traits>

#include "cugrade_emu/context.h"

namespace cugrade::emu::detail {

/// The running block's threads, as a region form walks them.
struct region_plan {
  const unsigned* order = nullptr; ///< thread ids in the launch's schedule order
  const ::uint3* tid = nullptr;    ///< each thread's coordinates, by id
  unsigned count = 0;
};

#pragma GCC visibility push(default)
/// The block the running region form is in.
const region_plan& region_plan_now();
/// Storage for one frame per thread of the block, `bytes` in all, aligned to 64: the same
/// storage for the same `slot` until the block ends.
void* region_frames(unsigned slot, std::size_t bytes);
/// The region form of `kernel` (its address), or null.
void* region_form_of(const void* kernel);

/// Registers a kernel's region form while the module that holds both is loaded.
class region_registration {
public:
  region_registration(const void* kernel, void* form);
  ~region_registration();
  region_registration(const region_registration&) = delete;
  region_registration& operator=(const region_registration&) = delete;

private:
  const void* m_kernel;
};
#pragma GCC visibility pop

/// Runs `region(thread)` for every thread of the block, in schedule order, each as itself (the
/// runner tells the running thread by its threadIdx).
template <class F> inline void region_each(F&& region) {
  // Copied out of the plan: the stores to the thread context would otherwise make the compiler
  // load them again for every thread.
  const region_plan plan = region_plan_now();
  for (unsigned k = 0; k < plan.count; ++k) {
    const unsigned thread = plan.order[k];
    t_ctx.thread_idx = plan.tid[thread];
    region(thread);
  }
}

/// region_each, keeping what each thread's `region` returns (a tuple of its locals) in that
/// thread's frame; returns the frames, indexed by thread id.
template <class F> inline auto* region_collect(unsigned slot, F&& region) {
  using frame = decltype(region(0u));
  static_assert(std::is_trivially_destructible_v<frame> && alignof(frame) <= 64,
                "cugrade: a region frame must be plain data");
  const region_plan plan = region_plan_now();
  auto* frames = static_cast<frame*>(region_frames(slot, sizeof(frame) * plan.count));
  for (unsigned k = 0; k < plan.count; ++k) {
    const unsigned thread = plan.order[k];
    t_ctx.thread_idx = plan.tid[thread];
    ::new (static_cast<void*>(frames + thread)) frame(region(thread));
  }
  return frames;
}

} // namespace cugrade::emu::detail
