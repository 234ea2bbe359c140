#pragma once
/// \file
/// What a fault handler reads from its signal for the protocol's `fault` event: the access
/// ("read" or "write") and the faulting program counter as an offset in its object, from which
/// the grader names the student's line (addr2line). Shared by the emulator's handler and the GPU
/// runner's; x86-64 Linux.

#include "harness/core/signal_safe_text.h"

#include <dlfcn.h>
#include <signal.h>
#include <ucontext.h>

#include <cstdint>

namespace cugrade {

/// "read" or "write" for a SIGSEGV from the page-fault error code; "access" for anything else.
inline const char* fault_access_word(int sig, const siginfo_t* info, const ucontext_t* uc) {
  if (sig != SIGSEGV || info->si_code == SI_KERNEL || uc == nullptr) {
    return "access";
  }
  // x86-64 page-fault error code: bit 1 set for a write.
  return (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0 ? "write" : "read";
}

/// `,"pc_offset":"0x...","object":"..."`: the pc's offset in the object dladdr finds it in (the
/// pc itself where none), both empty without a context to read it from.
inline void append_pc_place(signal_safe_text& out, const ucontext_t* uc) {
  const auto pc = uc != nullptr ? static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]) : 0;
  Dl_info where{};
  const bool known = uc != nullptr && dladdr(reinterpret_cast<void*>(pc), &where) != 0;
  out.text(R"(,"pc_offset":")");
  if (uc != nullptr) {
    out.hex(known ? pc - reinterpret_cast<std::uintptr_t>(where.dli_fbase) : pc);
  }
  out.text(R"(","object":)");
  out.json_string(known ? where.dli_fname : "");
}

} // namespace cugrade
