#include "harness/emu/src/fault_handler.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <pthread.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "cugrade_emu/context.h"
#include "cugrade_emu_control.h"
#include "harness/core/fault_words.h"
#include "harness/emu/src/memory.h"
#include "harness/emu/src/shared_arena.h"
#include "harness/emu/src/stack_pool.h"

namespace cugrade::emu::detail {
namespace {

std::atomic<int> g_report_fd{-1};
constexpr std::size_t k_alt_stack_bytes = 64 * 1024;

// All the handler may use to build its words.
using line_writer = signal_safe_text;

// "(1,0,0)" or "[1,0,0]": x, y and z between `open` and `close`.
void triple(line_writer& w, const ::uint3& v, char open, char close) {
  w.put(open);
  w.number(v.x);
  w.put(',');
  w.number(v.y);
  w.put(',');
  w.number(v.z);
  w.put(close);
}

void signed_number(line_writer& w, long long v) {
  if (v < 0) {
    w.put('-');
    w.number(static_cast<std::uint64_t>(-v));
  } else {
    w.number(static_cast<std::uint64_t>(v));
  }
}

// " to T[1024], past the end of the __shared__ array T (1024 elements)", after the access word
// describe() has written: an access that ran into the inaccessible page after an array (or below
// its start).
void describe_shared(line_writer& w, const shared_place& where) {
  const shared_array_info& info = where.slot->info;
  const char* name = info.name != nullptr && *info.name != '\0' ? info.name : "shared";
  const auto element = static_cast<long long>(info.element_size == 0 ? 1 : info.element_size);
  const long long offset = where.byte_offset;
  const long long index = offset >= 0 ? offset / element : -((-offset + element - 1) / element);
  w.text(" to ");
  w.text(name);
  w.put('[');
  signed_number(w, index);
  w.text("], ");
  w.text(offset < 0 ? "before the start" : "past the end");
  w.text(" of the __shared__ array ");
  w.text(name);
  w.text(" (");
  w.number(where.slot->size / static_cast<std::size_t>(element));
  w.text(where.slot->key == nullptr ? " elements of dynamic shared memory)" : " elements)");
}

// "1156-byte device buffer at 0x7f...": a buffer by its size and start, which the grader matches
// to the buffer the runner put there.
void buffer_at(line_writer& w, const fault_place& place) {
  w.number(place.buffer_size);
  w.text("-byte device buffer at ");
  w.hex(place.start);
}

// An access inside a live buffer that faulted: only the host guard closes one, so from host code
// it is a device pointer dereferenced there (what kills a GPU's process: a crash).
const char* describe_closed_buffer(line_writer& w, const fault_place& place) {
  if (t_ctx.fiber != nullptr) {
    w.text(" inside a device buffer that was closed to this thread");
    return "illegal_address";
  }
  w.text(" of byte ");
  w.number(place.offset);
  w.text(" of a ");
  buffer_at(w, place);
  w.text(": a device pointer dereferenced in host code (on a GPU the process dies with SIGSEGV; "
         "copy the values with cudaMemcpy instead)");
  return "crash";
}

// Appends the sentence after "kernel ..., thread (...): " and returns the error kind.
const char* describe(line_writer& w, int sig, const siginfo_t* info, const char* access) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  if (sig == SIGFPE) {
    w.text("integer division by zero (a GPU returns an unspecified value instead; the emulator "
           "stops)");
    return "launch_failure";
  }
  if (sig == SIGILL) {
    w.text("illegal instruction");
    return "launch_failure";
  }
  if (sig == SIGSEGV && info->si_code == SI_KERNEL) {
    w.text("invalid memory access (a misaligned vector access or a wild pointer)");
    return "illegal_address";
  }
  const fault_place place = device_memory::locate(info->si_addr);
  w.text(access);
  switch (place.where) {
  case fault_place::kind::past_end:
    if (place.distance == 0) {
      w.text(" just past the end of a ");
    } else {
      w.put(' ');
      w.number(place.distance);
      w.text(" bytes past the end of a ");
    }
    buffer_at(w, place);
    return "out_of_bounds";
  case fault_place::kind::before_start:
    w.put(' ');
    w.number(place.distance);
    w.text(" bytes before the start of a ");
    buffer_at(w, place);
    return "out_of_bounds";
  case fault_place::kind::freed:
    w.text(" at offset ");
    w.number(place.offset);
    w.text(" of a ");
    w.number(place.buffer_size);
    w.text("-byte device buffer that was already freed with cudaFree");
    return "illegal_address";
  case fault_place::kind::inside:
    return describe_closed_buffer(w, place);
  case fault_place::kind::none:
    break;
  }
  if (const shared_place shared = shared_arena::locate_anywhere(info->si_addr);
      shared.slot != nullptr) {
    describe_shared(w, shared);
    return "out_of_bounds";
  }
  if (stack_pool::is_guard(info->si_addr)) {
    w.text(" beyond the thread's stack: stack overflow (the emulator gives each thread 128 KiB; "
           "large local arrays or deep recursion)");
    return "illegal_address";
  }
  w.text(" at address ");
  w.hex(addr);
  w.text(addr < 65536 ? " (a null or nearly null pointer)" : ", which is in no device buffer");
  return "illegal_address";
}

// One event line reports, whatever ends the process: a fault, or the time limit's SIGTERM. The
// others that arrive meanwhile wait for the process to end.
std::atomic<bool> g_reporting{false};

void wait_for_the_end() {
  for (;;) {
    pause();
  }
}

// "kernel k, block (1,0,0), thread (3,15,0): " or "host code: ".
void describe_place(line_writer& msg) {
  const thread_context& ctx = t_ctx;
  if (ctx.fiber == nullptr) {
    msg.text("host code: ");
    return;
  }
  msg.text("kernel ");
  msg.text(ctx.kernel_name);
  msg.text(", block ");
  triple(msg, ctx.block_idx, '(', ')');
  msg.text(", thread ");
  triple(msg, ctx.thread_idx, '(', ')');
  msg.text(": ");
}

void report_event(const char* kind, const line_writer& msg, const ucontext_t* uc,
                  const char* access, const void* address) {
  const thread_context& ctx = t_ctx;
  const bool in_kernel = ctx.fiber != nullptr;
  const char* kernel = in_kernel ? ctx.kernel_name : "";
  const ::uint3 zero{0, 0, 0};
  line_writer out;
  out.text("{\"event\":\"fault\",\"error_kind\":");
  out.json_string(kind);
  out.text(",\"message\":");
  out.json_string(msg.data());
  out.text(",\"kernel\":");
  out.json_string(kernel);
  out.text(",\"block\":");
  triple(out, in_kernel ? ctx.block_idx : zero, '[', ']');
  out.text(",\"thread\":");
  triple(out, in_kernel ? ctx.thread_idx : zero, '[', ']');
  out.text(",\"access\":");
  out.json_string(std::strcmp(access, "access") == 0 ? "unknown" : access);
  out.text(",\"address\":\"");
  out.hex(reinterpret_cast<std::uintptr_t>(address));
  out.put('"');
  // No context: the watchdog's report of host code, with no program counter to map.
  append_pc_place(out, uc);
  out.text("}\n");
  const int fd = g_report_fd.load();
  out.write_to(fd >= 0 ? fd : 2);
}

void on_fault(int sig, siginfo_t* info, void* raw) {
  if (g_reporting.exchange(true)) {
    wait_for_the_end();
  }
  const auto* uc = static_cast<const ucontext_t*>(raw);
  line_writer msg;
  describe_place(msg);
  const char* access = fault_access_word(sig, info, uc);
  const char* kind = describe(msg, sig, info, access);
  msg.put('\0');
  report_event(kind, msg, uc, access, info->si_addr);
  _exit(fault_exit_status);
}

// Threads that run blocks (the pool's workers and the launching thread), so the time limit's
// SIGTERM, which may land on any thread, reaches the ones inside a kernel.
constexpr std::size_t k_max_kernel_threads = 1024;
std::array<std::atomic<pthread_t>, k_max_kernel_threads> g_kernel_threads{};
std::atomic<std::size_t> g_kernel_thread_count{0};

// The process ends by SIGTERM, as it would without this handler. (The handler runs with SIGTERM
// blocked: unblocked, the raised signal takes its default action at once.)
[[noreturn]] void end_by_sigterm() {
  signal(SIGTERM, SIG_DFL);
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  raise(SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &term, nullptr);
  _exit(128 + SIGTERM);
}

// Returns the number of other threads the signal was passed to.
std::size_t forward_stop_to_kernel_threads() {
  const pthread_t self = pthread_self();
  const std::size_t count = std::min(g_kernel_thread_count.load(), k_max_kernel_threads);
  std::size_t sent = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const pthread_t t = g_kernel_threads[i].load();
    if (t != pthread_t{} && pthread_equal(t, self) == 0 && pthread_kill(t, SIGTERM) == 0) {
      ++sent;
    }
  }
  return sent;
}

// The grader's time limit sends SIGTERM before SIGKILL: a thread inside a kernel reports where it
// was (the grader maps the pc to the student's line), so a timeout names the kernel and the line.
// Outside any kernel (and with no kernel thread to pass it to) the process simply ends.
void on_stop(int, siginfo_t*, void* raw) {
  if (t_ctx.fiber == nullptr) {
    static std::atomic<bool> forwarded{false};
    if (!forwarded.exchange(true) && forward_stop_to_kernel_threads() == 0) {
      end_by_sigterm();
    }
    return; // a thread inside a kernel reports and ends the process
  }
  if (g_reporting.exchange(true)) {
    wait_for_the_end();
  }
  line_writer msg;
  describe_place(msg);
  msg.text("stopped by the time limit");
  msg.put('\0');
  report_event("timeout", msg, static_cast<const ucontext_t*>(raw), "access", nullptr);
  end_by_sigterm();
}

} // namespace

void stop_for_time_limit(bool in_launch) {
  if (in_launch && forward_stop_to_kernel_threads() > 0) {
    // A thread inside a kernel reports where it was and ends the process; if the launch ended
    // before any saw the signal, the report below is the time limit's.
    sleep(2);
  }
  if (g_reporting.exchange(true)) {
    wait_for_the_end();
  }
  line_writer msg;
  msg.text(in_launch ? "host code: the launch did not end within the time limit"
                     : "host code: the launcher did not return within the time limit (its own "
                       "code, not a kernel, was running)");
  msg.put('\0');
  report_event("timeout", msg, nullptr, "access", nullptr);
  end_by_sigterm();
}

void install_fault_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = &on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) {
      sigaction(sig, &sa, nullptr);
    }
    struct sigaction stop {};
    stop.sa_sigaction = &on_stop;
    stop.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&stop.sa_mask);
    sigaction(SIGTERM, &stop, nullptr);
  });
}

void forget_kernel_threads() {
  g_kernel_thread_count.store(0);
}

void register_kernel_thread() {
  const std::size_t slot = g_kernel_thread_count.fetch_add(1);
  if (slot < k_max_kernel_threads) {
    g_kernel_threads[slot].store(pthread_self());
  }
}

void prepare_thread_for_faults() {
  thread_local bool prepared = false;
  if (prepared) {
    return;
  }
  prepared = true;
  void* mem =
      mmap(nullptr, k_alt_stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    return;
  }
  stack_t ss{};
  ss.ss_sp = mem;
  ss.ss_size = k_alt_stack_bytes;
  sigaltstack(&ss, nullptr);
}

void set_fault_fd(int fd) {
  g_report_fd.store(fd);
}

void runtime_init() {
  install_fault_handler();
  prepare_thread_for_faults();
}

} // namespace cugrade::emu::detail
