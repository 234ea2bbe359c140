#pragma once
/// \file
/// The fiber switch. Contexts are created by Boost.Context (make_fcontext); on x86-64 they are
/// switched by a small routine of our own that keeps make_fcontext's frame layout but
///  - stores the suspended context straight into the caller's slot (no transfer back and forth),
///  - neither saves nor restores MXCSR and the x87 control word (kernel code never changes them;
///    on the CI machine that save/restore was half the cost of a barrier), and
///  - leaves with `ret` rather than `jmp *%r8`, so the CPU's return-address predictor stays
///    balanced: every fiber waiting at a barrier is suspended at the same call site, so the
///    returns after a switch are predicted (after jump_fcontext every later return missed).
/// Elsewhere it falls back to Boost's jump_fcontext with the same interface.

#include <boost/context/detail/fcontext.hpp>

namespace cugrade::emu::detail {

namespace fctx = boost::context::detail;

#if defined(__x86_64__)
/// The switch itself (context_switch.cpp).
extern "C" void cugrade_emu_swap(fctx::fcontext_t* save, fctx::fcontext_t to, void* data)
    __attribute__((visibility("hidden")));

/// Suspends the running context into *save and resumes `to`; returns when something resumes the
/// saved context. A context made by make_fcontext starts in its function with `data` as
/// transfer_t::data.
inline void swap_context(fctx::fcontext_t* save, fctx::fcontext_t to, void* data) {
  cugrade_emu_swap(save, to, data);
}
#else
void swap_context(fctx::fcontext_t* save, fctx::fcontext_t to, void* data);
#endif

/// First thing a fiber's entry function must call with its transfer_t.
void finish_first_switch(fctx::transfer_t t);

} // namespace cugrade::emu::detail
