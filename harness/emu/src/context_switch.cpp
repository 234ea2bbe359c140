#include "harness/emu/src/context_switch.h"

namespace cugrade::emu::detail {

#if defined(__x86_64__)

// Frame (as make_fcontext lays it out): 0x00 FPU words (unused here), 0x08 r12, 0x10 r13,
// 0x18 r14, 0x20 r15, 0x28 rbx, 0x30 rbp, 0x38 return address. On leaving, rdi/rsi carry
// (suspended context, data) as make_fcontext's trampoline expects.
asm(R"(
  .text
  .p2align 4
  .globl cugrade_emu_swap
  .hidden cugrade_emu_swap
  .type cugrade_emu_swap,@function
cugrade_emu_swap:
  leaq -0x38(%rsp), %rsp
  movq %r12, 0x08(%rsp)
  movq %r13, 0x10(%rsp)
  movq %r14, 0x18(%rsp)
  movq %r15, 0x20(%rsp)
  movq %rbx, 0x28(%rsp)
  movq %rbp, 0x30(%rsp)
  movq %rsp, (%rdi)
  movq 0x08(%rsi), %r12
  movq 0x10(%rsi), %r13
  movq 0x18(%rsi), %r14
  movq 0x20(%rsi), %r15
  movq 0x28(%rsi), %rbx
  movq 0x30(%rsi), %rbp
  movq (%rdi), %rdi
  leaq 0x38(%rsi), %rsp
  movq %rdx, %rsi
  ret
  .size cugrade_emu_swap, .-cugrade_emu_swap
)");

void finish_first_switch(fctx::transfer_t) {}

#else

namespace {
// The slot of whoever switched last on this OS thread: the resumed side stores the suspended
// context there (jump_fcontext hands it over instead of storing it).
thread_local fctx::fcontext_t* t_save_slot = nullptr;
} // namespace

void swap_context(fctx::fcontext_t* save, fctx::fcontext_t to, void* data) {
  t_save_slot = save;
  const fctx::transfer_t t = fctx::jump_fcontext(to, data);
  *t_save_slot = t.fctx;
}

void finish_first_switch(fctx::transfer_t t) {
  *t_save_slot = t.fctx;
}

#endif

} // namespace cugrade::emu::detail
