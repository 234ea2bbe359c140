// Lost updates, as a warp loses them. On a GPU, `bins[x]++` on global memory is a load, an add
// and a store, each made by the 32 lanes of a warp together: lanes with the same x all load the
// old count, and all but one of their increments are lost (the course's non-atomic histogram
// comes up short on every large input). Here threads run one at a time, so the same statement
// never lost an update, and the kernel passed in emulation while the GPU grade failed it.
//
// In the blocks the emulator checks (launch_job::check_shared), a read-modify-write of a device
// buffer or a __device__ variable (the rewriter's shared_update: `++`, `--`, the compound assignments and `a[i] = a[i] +
// x` on a subscript, and a compound assignment to `*p` at a statement's start) is taken with the
// warp: the thread waits until every other lane of its warp has reached one too, or waits where it
// cannot arrive, or has exited (the warp step of warp_step.cpp); when the step is released, every
// waiting lane's element is read, before any lane stores. Each thread then modifies its own copy,
// which is stored at its next access in a checked block, atomic, barrier, warp operation or exit.
// Lanes that updated the same element store the same value: the updates a GPU's warp loses are lost
// here too, while updates of distinct elements (a thread's own output) give what they always gave.
// Other blocks are unchecked and update in place. Shared memory is taken so in a block of one
// warp only: in a larger one the hazard detector reports updates of one element by threads of
// different warps as a race (racecheck's verdict on a GPU), and a privatized histogram of 32-thread
// blocks counting with a plain ++ would otherwise pass here and lose counts on a GPU. Such an
// update is stored when its thread exits, never after its block.
//
// Between blocks: a thread that exits right after its update (thread 0 of each block adding the
// block's sum, `result[0] += s[0]`) leaves the store to its worker, which makes it only after
// the worker's next such update has read its element (or when the worker leaves the launch). On a
// GPU blocks run at once and such updates overlap; here one block's update then lands between
// the next one's read and store, and one of the two is lost. A thread's own elements still end
// with its value: nobody else updates them.
#include "cugrade_emu/shared_access.h"
#include "harness/emu/src/block_runner.h"

namespace cugrade::emu::detail {

void* block_runner::warp_update(void* address, std::size_t bytes) {
  flush_update();
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  if (bytes > sizeof(pending_store::value) ||
      !(in_device_buffer(at, bytes) || in_block_shared(address) ||
        in_device_variable(at, bytes))) {
    return address;
  }
  fiber_extra& x = m_extra[m_current];
  x.update.at = address;
  x.update.bytes = static_cast<unsigned>(bytes);
  x.update_read = false;
  warp_step(); // alone in its warp: returns at once, unread
  if (!x.update_read) {
    x.update.read();
  }
  m_deferred.store(); // after this thread's read: an exited thread's store lands late
  t_ctx.update_pending = true;
  return x.update.value;
}

void block_runner::defer_update() {
  if (!t_ctx.update_pending) {
    return;
  }
  t_ctx.update_pending = false;
  pending_store& mine = m_extra[m_current].update;
  if (in_block_shared(mine.at)) { // the block's shared memory does not outlive it
    mine.store();
    return;
  }
  m_deferred.store();
  m_deferred = mine;
  mine.at = nullptr;
}

void block_runner::flush_update() {
  if (!t_ctx.update_pending) {
    return;
  }
  t_ctx.update_pending = false;
  m_extra[m_current].update.store();
}

} // namespace cugrade::emu::detail
