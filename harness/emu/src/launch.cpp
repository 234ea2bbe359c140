// run_launch: validates a launch the way a GPU does (the kernel does not run and cudaGetLastError
// reports the error), then runs every block on the worker pool and turns an abort into the
// sticky or plain error it deserves. Launches are synchronous.
#include <atomic>
#include <cstdio>
#include <optional>
#include <string>

#include "cugrade_emu/context.h"
#include "cugrade_emu/launch.h"
#include "harness/emu/src/atomic_contention.h"
#include "harness/emu/src/device_limits.h"
#include "harness/emu/src/fault_handler.h"
#include "harness/emu/src/launch_job.h"
#include "harness/emu/src/memory.h"
#include "harness/emu/src/runtime_checks.h"
#include "harness/emu/src/watchdog.h"
#include "harness/emu/src/worker_pool.h"

namespace cugrade::emu::detail {
namespace {

std::atomic<std::uint64_t> g_launch_serial{0};

std::string dims(const dim3& d) {
  return std::to_string(d.x) + " x " + std::to_string(d.y) + " x " + std::to_string(d.z);
}

std::optional<std::string> check_geometry(dim3 grid, dim3 block) {
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0) {
    return "a grid of " + dims(grid) + " blocks of " + dims(block) +
           " threads has a zero dimension (is the element count 0, or the division rounding "
           "down?)";
  }
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  if (threads > limits::max_threads_per_block) {
    return std::to_string(threads) + " threads per block (" + dims(block) +
           "); a block may have at most 1024 threads";
  }
  if (block.x > limits::max_block_dim[0] || block.y > limits::max_block_dim[1] ||
      block.z > limits::max_block_dim[2]) {
    return "a block of " + dims(block) + " threads; the limits are 1024 x 1024 x 64";
  }
  if (grid.x > limits::max_grid_dim[0] || grid.y > limits::max_grid_dim[1] ||
      grid.z > limits::max_grid_dim[2]) {
    return "a grid of " + dims(grid) + " blocks; the limits are 2147483647 x 65535 x 65535";
  }
  return std::nullopt;
}

std::optional<std::string> check_shared(const kernel_info& info, std::size_t dynamic) {
  const std::size_t max_dynamic = info.max_dynamic_shared >= 0
                                      ? static_cast<std::size_t>(info.max_dynamic_shared)
                                      : limits::shared_per_block - info.static_shared;
  if (dynamic > max_dynamic) {
    return std::to_string(dynamic) +
           " bytes of dynamic shared memory; this kernel may use at "
           "most " +
           std::to_string(max_dynamic) +
           " (more needs cudaFuncSetAttribute(kernel, "
           "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes), up to " +
           std::to_string(limits::shared_per_block_optin) + ")";
  }
  return std::nullopt;
}

void reject(const launch_site& site, const std::string& why) {
  diagnostic d;
  d.error_kind = "launch_failure";
  d.message = "kernel " + std::string(site.kernel_name) + " launched at " + site.file + ":" +
              std::to_string(site.line) + " with " + why +
              ". The kernel did not run; cudaGetLastError() returns " +
              cudaGetErrorName(limits::launch_config_error) + ".";
  d.kernel = site.kernel_name;
  d.file = site.file;
  d.line = site.line;
  auto& state = emulator_state::instance();
  state.add_diagnostic(std::move(d));
  state.result(limits::launch_config_error);
}

void prepare_job(launch_job& job, const launch_site& site, dim3 grid, dim3 block,
                 std::size_t shared, const kernel_info& info) {
  job.site = site;
  job.grid = grid;
  job.block = block;
  job.threads_per_block = block.x * block.y * block.z;
  job.total_blocks = 1ull * grid.x * grid.y * grid.z;
  job.dynamic_shared = shared;
  job.shared_limit =
      info.max_dynamic_shared >= 0 ? limits::shared_per_block_optin : limits::shared_per_block;
  job.schedule = emulator_state::instance().schedule();
  job.profile = profile_store::instance().enabled();
  job.check_shared = emulator_state::instance().shared_checks() || job.profile;
  job.serial = ++g_launch_serial;
}

void keep_profile(const launch_job& job) {
  launch_profile p;
  p.kernel = job.site.kernel_name != nullptr ? job.site.kernel_name : "";
  p.file = job.site.file != nullptr ? job.site.file : "";
  p.grid = {job.grid.x, job.grid.y, job.grid.z};
  p.block = {job.block.x, job.block.y, job.block.z};
  p.static_shared = job.static_shared.load();
  p.dynamic_shared = job.dynamic_shared;
  p.left_out = job.profile_counts.left_out;
  p.accesses = access_list(job.profile_counts);
  profile_store::instance().finish(std::move(p));
}

} // namespace

void run_launch(const launch_site& site, dim3 grid, dim3 block, std::size_t shared_bytes,
                cudaStream_t /*stream*/, kernel_thunk thunk, const void* closure,
                kernel_thunk block_thunk, const void* block_closure) {
  runtime_init();
  auto& state = emulator_state::instance();
  if (t_ctx.fiber != nullptr) {
    reject(site, "a launch from inside a kernel (dynamic parallelism), which the emulator does "
                 "not support");
    return;
  }
  if (state.sticky() != cudaSuccess) {
    (void)sticky_result();
    return;
  }
  const kernel_info info = state.kernel(site.kernel_key);
  std::optional<std::string> problem = check_geometry(grid, block);
  if (!problem) {
    problem = check_shared(info, shared_bytes);
  }
  if (problem) {
    reject(site, *problem);
    return;
  }
  const device_memory::access_scope open; // kernels reach every buffer
  launch_job job;
  prepare_job(job, site, grid, block, shared_bytes, info);
  job.thunk = thunk;
  job.closure = closure;
  if (region_forms_enabled()) {
    job.block_thunk = block_thunk;
    job.block_closure = block_closure;
  }
  watchdog_launch_begins(job.total_blocks * job.threads_per_block);
  worker_pool::instance().run(job);
  watchdog_launch_ends();
  note_launch_contended(job.contended.load());
  note_region_blocks(job.region_blocks.load());
  state.note_static_shared(site.kernel_key, job.static_shared.load());
  if (job.profile) {
    keep_profile(job);
  }
  if (job.aborted.load()) {
    const auto error = static_cast<cudaError_t>(job.error.load());
    if (job.error_sticky.load()) {
      state.set_sticky(error);
    } else {
      state.result(error);
    }
  }
  check_canaries(site.kernel_name);
  std::fflush(stdout);
}

} // namespace cugrade::emu::detail
