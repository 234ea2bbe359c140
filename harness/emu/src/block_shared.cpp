// Static shared memory: each __shared__ declaration gets its slot in the block's arena the first
// time any thread of the block reaches it; the arena is reset for every block and every new slot
// starts as garbage. The 48 KiB static limit and the static + dynamic limit are enforced here,
// where the static size first becomes known.
#include <string>

#include "harness/emu/src/block_runner.h"
#include "harness/emu/src/device_limits.h"

namespace cugrade::emu::detail {

void* block_runner::shared_slot(const void* key, std::size_t size, std::size_t align) {
  for (const auto& e : m_shared_entries) {
    if (e.key == key) {
      return m_static_base + e.offset;
    }
  }
  const std::size_t a = align < 16 ? 16 : align;
  const std::size_t offset = (m_static_used + a - 1) / a * a;
  const std::size_t used = offset + size;
  if (used > limits::shared_per_block) {
    fail("launch_failure",
         "its __shared__ variables need at least " + std::to_string(used) +
             " bytes, more than the 49152 bytes of static shared memory a block may use (nvcc "
             "rejects such a kernel: 'uses too much shared data')",
         m_current, {}, limits::launch_config_error, false);
  }
  if (used + m_job->dynamic_shared > m_job->shared_limit) {
    fail("launch_failure",
         std::to_string(used) + " bytes of static plus " + std::to_string(m_job->dynamic_shared) +
             " bytes of dynamic shared memory exceed the " + std::to_string(m_job->shared_limit) +
             " bytes a block may use",
         m_current, {}, limits::launch_config_error, false);
  }
  m_static_used = used;
  m_shared_entries.push_back({key, offset});
  fill_garbage(m_static_base + offset, size, m_garbage_seed + offset);
  std::size_t seen = m_job->static_shared.load(std::memory_order_relaxed);
  while (seen < used && !m_job->static_shared.compare_exchange_weak(seen, used)) {
  }
  return m_static_base + offset;
}

} // namespace cugrade::emu::detail
