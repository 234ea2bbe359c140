// Warp-synchronous code: the lanes of a warp take each volatile access to shared memory together
// (the "unrolled last warp" of a reduction, `sdata[tid] += sdata[tid + 16]` through a volatile
// pointer with no __syncwarp). Before each such access a lane waits until every other lane of
// its warp has reached one too, or waits where it cannot arrive (a __syncthreads(), a warp
// rendezvous) or has exited; then all of them go on, and each makes its access before any of them
// reaches its next one. A warp whose lanes run in step, as a GPU runs a converged warp, gives
// such code the result its author meant; one thread after another would not. In such code the
// order the lanes then run in does not matter: what one lane reads in a step, no other lane of
// the warp writes in the same step. A lane that spins (yield) lets the step go on without it.
#include "harness/emu/src/block_runner.h"

namespace cugrade::emu::detail {

void block_runner::warp_step() {
  if (m_in_regions) [[unlikely]] {
    fail_in_region("a volatile shared-memory access");
  }
  const fiber_id self = m_current;
  const unsigned warp = self / 32;
  const unsigned lane_bit = 1u << (self % 32);
  warp_lanes& w = m_warps[warp];
  if ((w.existing & ~w.exited & ~lane_bit) == 0) {
    return; // alone in its warp
  }
  settle_shared();
  m_state[self] = fiber_state::step;
  --m_ready;
  w.stepping |= lane_bit;
  try_step(warp);
  switch_away(self);
}

void block_runner::try_step(unsigned warp) {
  warp_lanes& w = m_warps[warp];
  const fiber_id base = warp * 32;
  // Lanes that may still arrive: runnable ones. Outside the masks, a lane that cannot run waits
  // at a barrier.
  unsigned pending = w.existing & ~w.exited & ~w.stepping & ~w.waiting;
  for (unsigned rest = pending; rest != 0; rest &= rest - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctz(rest));
    if (!runnable(base + lane)) {
      pending &= ~(1u << lane);
    }
  }
  if (pending == 0) {
    release_step(warp);
  }
}

void block_runner::release_step(unsigned warp) {
  warp_lanes& w = m_warps[warp];
  const fiber_id base = warp * 32;
  for (unsigned rest = w.stepping; rest != 0; rest &= rest - 1) {
    const fiber_id lane = base + static_cast<unsigned>(__builtin_ctz(rest));
    m_state[lane] = fiber_state::ready;
    ++m_ready;
    if (fiber_extra& x = m_extra[lane]; x.update.at != nullptr) { // every read before any store
      x.update.read();
      x.update_read = true;
    }
  }
  w.stepping = 0;
}

} // namespace cugrade::emu::detail
