#include "harness/emu/toolchain.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "harness/core/file_io.h"
#include "harness/emu/rewrite.h"

extern char** environ;

namespace cugrade::emu {
namespace {

// Runs argv (no shell), returning its exit status and combined output.
cugrade::result<build_output> run_capture(const std::vector<std::string>& args) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    return cugrade::fail("cannot create a pipe for the compiler's output");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  std::vector<char*> argv;
  for (const std::string& a : args) {
    argv.push_back(const_cast<char*>(a.c_str()));
  }
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (rc != 0) {
    close(pipe_fds[0]);
    return cugrade::fail("cannot start " + args[0] + ": install g++ (Debian: apt-get install g++)");
  }
  build_output out;
  char buf[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) > 0;) {
    out.log.append(buf, static_cast<std::size_t>(n));
  }
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  out.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

// __half is GCC's _Float16 (cuda_fp16.h). Without F16C every conversion to and from float is a
// call into libgcc's software routines, 85% of a half-precision matmul's time in emulation; with
// it each is one instruction (vcvtps2ph, vcvtph2ps), and the results are the same (round to
// nearest even either way). The submission is compiled on the machine that runs it, so the flag is
// given where this CPU has the instructions (F16C needs AVX's register state).
std::vector<std::string> half_precision_flags() {
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c")) {
    return {"-mf16c"};
  }
#endif
  return {};
}

} // namespace

// -fira-region=all: every loop is a region of its own for the register allocator. A kernel's
// accumulator lives across __syncthreads() (a call, which clobbers every SSE register), and GCC's
// default (mixed: only loops of high register pressure are regions) then kept it in memory for
// the whole kernel, its inner loop included: each `sum += Mds[ty][e] * Nds[e][tx]` a store and a
// reload on the loop's critical path. With every loop a region the inner loop keeps it in a
// register and spills it at the loop's edges: tiled matmul 2.5x native to 2.0x (emu_bench,
// docs/emulation.md).
std::vector<std::string> emu_compile_command(const std::filesystem::path& rewritten_source,
                                             const std::filesystem::path& output_so,
                                             const std::filesystem::path& include_dir,
                                             const std::filesystem::path& lib_dir) {
  std::vector<std::string> command{"g++",
                                   "-std=c++20",
                                   "-O2",
                                   "-fira-region=all",
                                   "-g",
                                   "-fPIC",
                                   "-shared",
                                   "-fno-strict-aliasing",
                                   "-fstack-clash-protection",
                                   "-Wno-register",
                                   "-include",
                                   (include_dir / "cugrade_emu.h").string(),
                                   "-I" + include_dir.string(),
                                   "-x",
                                   "c++",
                                   rewritten_source.string(),
                                   "-x",
                                   "none",
                                   "-o",
                                   output_so.string(),
                                   "-L" + lib_dir.string(),
                                   "-lcugrade_emu",
                                   "-Wl,-rpath," + lib_dir.string(),
                                   "-Wl,-z,defs"};
  const auto half = half_precision_flags();
  command.insert(command.begin() + 4, half.begin(), half.end());
  return command;
}

cugrade::result<build_output> build_submission(const std::filesystem::path& source,
                                               const std::filesystem::path& rewritten,
                                               const std::filesystem::path& output_so,
                                               const std::filesystem::path& include_dir,
                                               const std::filesystem::path& lib_dir) {
  cugrade::result<std::string> text = read_file(source);
  if (!text) {
    return cugrade::fail(text.error());
  }
  cugrade::result<std::string> cpp = rewrite_source(*text, source.filename().string());
  if (!cpp) {
    return build_output{1, cpp.error() + "\n"};
  }
  std::ofstream out(rewritten, std::ios::binary | std::ios::trunc);
  out << *cpp;
  out.close();
  if (!out) {
    return cugrade::fail(rewritten.string() + ": cannot write the rewritten source");
  }
  return run_capture(emu_compile_command(rewritten, output_so, include_dir, lib_dir));
}

} // namespace cugrade::emu
