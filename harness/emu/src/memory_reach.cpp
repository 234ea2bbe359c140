// What a checked block's thread may reach outside shared memory (note_reach, called by the
// rewritten code through shared_access.h when an access leaves the memory it reached lately). On
// a GPU a kernel reaches device memory only: its buffers, its own local variables, __device__ and
// __constant__ variables, pinned host memory the driver maps for it, and what device code
// allocated itself. A malloc'ed host array, a `new`ed one or a host stack variable handed to a
// launch faults there (an MMU fault; memcheck: "Invalid __global__ write"), where the emulator,
// whose kernels share the host's address space, would read and write it. Such an access ends the
// launch here as out_of_bounds, before it happens.
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "harness/emu/src/block_runner.h"
#include "harness/emu/src/memory.h"
#include "harness/emu/src/reachable_host_memory.h"
#include "harness/emu/src/shared_arena.h"
#include "harness/emu/src/stack_pool.h"

namespace cugrade::emu::detail {
namespace {

struct segment_search {
  std::uintptr_t at = 0;
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
};

// The loaded segment of a module (the submission, the runner, a library) that holds `at`: a
// __device__ or __constant__ variable, a string literal, a static table.
bool module_segment_around(std::uintptr_t at, std::uintptr_t& begin, std::uintptr_t& end) {
  segment_search s{at};
  const auto visit = [](dl_phdr_info* info, std::size_t, void* data) -> int {
    auto& found = *static_cast<segment_search*>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
      const ElfW(Phdr)& ph = info->dlpi_phdr[i];
      const std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
      if (ph.p_type == PT_LOAD && found.at >= lo && found.at < lo + ph.p_memsz) {
        found.begin = lo;
        found.end = lo + ph.p_memsz;
        return 1;
      }
    }
    return 0;
  };
  if (dl_iterate_phdr(visit, &s) == 0) {
    return false;
  }
  begin = s.begin;
  end = s.end;
  return true;
}

// Whether the page holding `at` is mapped at all: an unmapped address faults on the access
// itself, and the fault handler names it (a null or wild pointer).
bool mapped(std::uintptr_t at) {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  unsigned char resident = 0;
  return mincore(reinterpret_cast<void*>(at & ~(page - 1)), 1, &resident) == 0 || errno != ENOMEM;
}

} // namespace

bool block_runner::reachable(std::uintptr_t at, std::uintptr_t& begin, std::uintptr_t& end) {
  if (const hot_range* r = m_reached.find(at, 1)) {
    begin = r->begin;
    end = r->end;
    return true;
  }
  const auto* p = reinterpret_cast<const void*>(at);
  if (!device_memory::instance().buffer_around(p, 1, begin, end) &&
      !stack_pool::chunk_around(p, begin, end) &&
      !reachable_host_memory::instance().find(at, begin, end) &&
      !module_segment_around(at, begin, end)) {
    return false;
  }
  m_reached.add({begin, end});
  return true;
}

bool block_runner::in_device_variable(std::uintptr_t at, std::size_t bytes) {
  if (m_variables.find(at, bytes) != nullptr) {
    return true;
  }
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  if (at - m_last_stack.begin < m_last_stack.end - m_last_stack.begin) {
    return false; // a thread's local array, the common case
  }
  if (stack_pool::chunk_around(reinterpret_cast<const void*>(at), begin, end)) {
    m_last_stack = {begin, end};
    return false;
  }
  if (!module_segment_around(at, begin, end) || at + bytes > end) {
    return false;
  }
  m_variables.add({begin, end});
  return true;
}

void block_runner::note_reach(const volatile void* address, std::size_t bytes, shared_use use,
                              int line) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  const auto* p = reinterpret_cast<const void*>(at);
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  if (reachable(at, begin, end)) {
    if (m_profiling) [[unlikely]] {
      note_global(address, bytes, use, line); // the ranges stay empty: every access comes here
    } else {
      t_ctx.reach[1] = t_ctx.reach[0];
      t_ctx.reach[0] = {begin, end - begin};
    }
    return;
  }
  // Where the access itself faults or another check judges it, that check speaks: a null or
  // wild pointer, a device buffer's guard page or canary, a freed buffer, shared memory outside
  // the block's arrays, a stack's guard page.
  if (at < 65536 || device_memory::locate(p).where != fault_place::kind::none ||
      shared_arena::locate_anywhere(p).slot != nullptr || stack_pool::is_guard(p) ||
      !mapped(at)) {
    return;
  }
  fail_host_memory(at, bytes, use, line);
}

void block_runner::fail_host_memory(std::uintptr_t at, std::size_t bytes, shared_use use,
                                    int line) {
  char where[2 + 16 + 1];
  std::snprintf(where, sizeof where, "0x%llx", static_cast<unsigned long long>(at));
  std::string message =
      "kernel " + std::string(m_job->site.kernel_name) + ": " + words_for(use).noun + " of " +
      std::to_string(bytes) + " bytes at " + at_line(line) + " by " + thread_of_block(m_current) +
      " of " + block_name() + " reaches host memory at " + where +
      ", not device memory: a kernel reaches cudaMalloc'ed buffers, its own variables, "
      "__device__ and __constant__ variables and pinned memory (cudaMallocHost), never memory "
      "from malloc or new or a host variable (cudaMalloc a device buffer, pass it to the kernel "
      "and cudaMemcpy between the two)";
  fail_as(diagnostic_of("out_of_bounds", std::move(message), m_current,
                        wait_site{m_job->site.file, line}),
          cudaErrorIllegalAddress, true);
}

} // namespace cugrade::emu::detail
