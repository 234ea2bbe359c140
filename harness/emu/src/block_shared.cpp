// Shared memory of the running block: each __shared__ declaration gets its place in the worker's
// arena the first time any block reaches it (shared_arena.h), and is filled with garbage the
// first time each block reaches it. The 48 KiB static limit and the static + dynamic limit are
// enforced here, where the static size first becomes known.
#include <string>

#include "harness/emu/src/block_runner.h"
#include "harness/emu/src/device_limits.h"

namespace cugrade::emu::detail {

void* block_runner::shared_slot(const void* key, std::size_t size, std::size_t align,
                                const shared_array_info& info) {
  shared_slot_record* slot = m_arena.static_slot(key, size, align, info);
  if (slot == nullptr) {
    fail("launch_failure",
         "the kernels of this program declare more __shared__ arrays than the emulator can place "
         "(8 MiB of shared memory, each array on pages of its own)",
         current(), {}, cudaErrorLaunchOutOfResources, false);
  }
  auto& cached = t_ctx.shared_cache[shared_cache_line(key)];
  cached = {key, slot->base, m_block_serial};
  if (slot->block_stamp == m_block_serial) {
    return slot->base;
  }
  // First use in this block: count it against the limits, as a GPU would at launch.
  const std::size_t a = align < 16 ? 16 : align;
  const std::size_t used = (m_static_used + a - 1) / a * a + size;
  if (used > limits::shared_per_block) {
    fail("launch_failure",
         "its __shared__ variables need at least " + std::to_string(used) +
             " bytes, more than the 49152 bytes of static shared memory a block may use (nvcc "
             "rejects such a kernel: 'uses too much shared data')",
         current(), {}, limits::launch_config_error, false);
  }
  if (used + m_job->dynamic_shared > m_job->shared_limit) {
    fail("launch_failure",
         std::to_string(used) + " bytes of static plus " + std::to_string(m_job->dynamic_shared) +
             " bytes of dynamic shared memory exceed the " + std::to_string(m_job->shared_limit) +
             " bytes a block may use",
         current(), {}, limits::launch_config_error, false);
  }
  m_static_used = used;
  slot->block_stamp = m_block_serial;
  fill_garbage(slot->base, size, m_garbage_seed + used);
  t_ctx.shared_bytes = m_arena.used_bytes(); // the arena may have grown
  std::size_t seen = m_job->static_shared.load(std::memory_order_relaxed);
  while (seen < used && !m_job->static_shared.compare_exchange_weak(seen, used)) {
  }
  return slot->base;
}

void* block_runner::dynamic_shared(const char* name, const char* element,
                                   std::size_t element_size) {
  if (m_dynamic == nullptr) {
    return nullptr;
  }
  if (m_dynamic->info.name != name) { // what its diagnostics call it: the last declaration seen
    m_dynamic->info = {name,
                       element,
                       element_size == 0 ? 1 : element_size,
                       1,
                       {m_job->dynamic_shared / (element_size == 0 ? 1 : element_size), 1, 1}};
  }
  t_ctx.shared_bytes = m_arena.used_bytes();
  return m_dynamic->base;
}

} // namespace cugrade::emu::detail
