#pragma once
/// \file
/// A student's debug output, caught per call. The contract allows `printf` in kernels and
/// launchers and `std::cout`/`std::cerr` in launchers; the grader shows that output with the case
/// it belongs to. While a call runs, descriptors 1 and 2 point at a pipe that a reader thread
/// drains, keeping the first bytes of the call and counting the rest.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>

namespace cugrade::runner {

/// The contract's caps: the first 4 KiB of each case and 64 KiB of each kernel are kept.
inline constexpr std::size_t output_kept_per_case = 4096;
inline constexpr std::size_t output_kept_per_kernel = 65536;

/// What one call wrote to stdout and stderr, in the order written.
struct captured_output {
  std::string text;      ///< the first bytes, at most what begin() was told to keep
  std::size_t bytes = 0; ///< everything the call wrote, kept or not
};

/// Catches descriptors 1 and 2 between begin() and end(). Not thread-safe; one call at a time.
class output_capture {
public:
  output_capture();
  ~output_capture();
  output_capture(const output_capture&) = delete;
  output_capture& operator=(const output_capture&) = delete;

  /// Flushes the streams and points stdout and stderr at a pipe, keeping the first `keep_bytes`
  /// written. False (and nothing changed) when no pipe or thread can be made: output then goes
  /// where it went before.
  bool begin(std::size_t keep_bytes);
  /// Flushes the streams (a GPU's device printf is flushed by the synchronisation before this),
  /// restores stdout and stderr and returns what was written since begin().
  captured_output end();

private:
  struct state;
  std::unique_ptr<state> m;
};

/// One kernel's debug output: the capture and what is left of the kernel's share.
struct kernel_output {
  output_capture capture;
  std::size_t left = output_kept_per_kernel;

  /// What the next call may keep: a case's share while the kernel's lasts.
  [[nodiscard]] std::size_t next_share() const { return std::min(left, output_kept_per_case); }
};

} // namespace cugrade::runner
