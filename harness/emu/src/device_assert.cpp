// assert() in device code. glibc's assert macro calls __assert_fail; this definition, in the
// library every emulated submission and its runner link ahead of libc, takes its place (ELF
// symbol interposition). In a kernel thread a failed assert ends the launch with a sticky
// cudaErrorAssert and a device_assert diagnostic naming the assertion, its line, the thread and
// the block, as a GPU's device-side assert does; the runner goes on to report it. Anywhere else
// (a launcher, the host) it does what glibc does: the message on stderr, then abort().
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "harness/emu/src/block_runner.h"

extern "C" __attribute__((visibility("default"))) void
__assert_fail(const char* assertion, const char* file, unsigned int line,
              const char* function) noexcept {
  using cugrade::emu::detail::block_runner;
  using cugrade::emu::detail::t_ctx;
  if (t_ctx.runner != nullptr && t_ctx.fiber != nullptr) {
    static_cast<block_runner*>(t_ctx.runner)->fail_assert(assertion, file, static_cast<int>(line));
  }
  std::fprintf(stderr, "%s: %s:%u: %s%sAssertion `%s' failed.\n", program_invocation_short_name,
               file, line, function != nullptr ? function : "", function != nullptr ? ": " : "",
               assertion);
  std::fflush(stderr);
  std::abort();
}
