// The entry point kernels call for __syncthreads(). On x86-64 it is a small assembly thunk that
// calls the scheduler and then jumps (instead of returning) back into the kernel.
//
// Why: while a block runs, the fiber that switches away usually waits at the NEXT barrier while
// the fiber it resumes still waits at the previous one (a tiled matmul alternates between two
// __syncthreads() calls). A `ret` into the kernel is predicted from the return stack, which holds
// the switcher's call site, so every such return was mispredicted. An indirect jump is predicted
// from its own history instead, and all fibers resumed in one phase return to the same place.
// The thunk leaves one stale return-stack entry per barrier, which costs nothing (the return stack
// is a small ring that later calls overwrite).
#include "cugrade_emu/device.h"

namespace cugrade::emu::detail {

// Defined in block_runner.cpp, where the scheduler's barrier path inlines into it.
extern "C" int cugrade_emu_sync_threads_impl(sync_kind kind, int predicate, const char* file,
                                             int line) __attribute__((visibility("hidden")));

#if defined(__x86_64__)
// int sync_threads(sync_kind, int, const char*, int): arguments pass through untouched.
asm(R"(
  .text
  .p2align 4
  .globl _ZN7cugrade3emu6detail12sync_threadsENS1_9sync_kindEiPKci
  .type _ZN7cugrade3emu6detail12sync_threadsENS1_9sync_kindEiPKci,@function
_ZN7cugrade3emu6detail12sync_threadsENS1_9sync_kindEiPKci:
  pushq %rbx
  movq 8(%rsp), %rbx
  call cugrade_emu_sync_threads_impl
  movq %rbx, %r11
  popq %rbx
  addq $8, %rsp
  jmp *%r11
  .size _ZN7cugrade3emu6detail12sync_threadsENS1_9sync_kindEiPKci, .-_ZN7cugrade3emu6detail12sync_threadsENS1_9sync_kindEiPKci
)");
#else
int sync_threads(sync_kind kind, int predicate, const char* file, int line) {
  return cugrade_emu_sync_threads_impl(kind, predicate, file, line);
}
#endif

} // namespace cugrade::emu::detail
