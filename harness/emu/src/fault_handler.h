#pragma once
/// \file
/// Fatal faults in emulated code: SIGSEGV/SIGBUS (a guard page, a stray pointer, a stack
/// overflow), SIGFPE, SIGILL. The handler runs on an alternate signal stack, describes the fault
/// as one line of JSON on the registered descriptor and ends the process with _exit(86):
///
///   {"event":"fault","error_kind":"out_of_bounds","message":"kernel k, block (1,0,0), thread
///    (3,15,0): write just past the end of a 1156-byte device buffer","kernel":"k",
///    "block":[1,0,0],"thread":[3,15,0],"access":"write","address":"0x...","pc_offset":"0x1234",
///    "object":"/path/to/submission.so"}
///
/// error_kind is "out_of_bounds" (a guard page of a device buffer) or "illegal_address"
/// (anything else); faults outside kernels are reported the same way with an empty kernel.

namespace cugrade::emu::detail {

/// Installs the handlers once per process (idempotent, thread-safe); SIGTERM too: the grader's
/// time limit sends it before SIGKILL, and a thread inside a kernel then reports where it was as
/// a "fault" event with error_kind "timeout" (and the same place fields).
void install_fault_handler();
/// Records the calling thread as one that runs blocks, so SIGTERM reaches it (once per thread).
void register_kernel_thread();
/// After fork: the parent's threads do not exist in the child.
void forget_kernel_threads();
/// Gives the calling thread an alternate signal stack (idempotent per thread): needed so a fault
/// on an exhausted fiber stack can still be reported.
void prepare_thread_for_faults();
/// The watchdog's time is up (watchdog.h): threads inside a kernel get SIGTERM, so one reports
/// where it was as the grader's SIGTERM would have it; otherwise (host code, or no kernel thread
/// answered) reports a "timeout" fault event with no program counter. Ends the process.
[[noreturn]] void stop_for_time_limit(bool in_launch);
/// Where the JSON line goes; -1: stderr.
void set_fault_fd(int fd);

/// Installs the handler and prepares the calling thread: what every API entry point needs.
void runtime_init();

} // namespace cugrade::emu::detail
