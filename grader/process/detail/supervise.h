#pragma once
/// \file
/// The parent's side of a running child: pump its output pipes, enforce the wall-clock limit on
/// the whole process group, and reap it.

#include "grader/process/detail/capped_output.h"
#include "grader/process/detail/unique_fd.h"
#include "grader/process/process.h"

#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>

namespace cugrade::process::detail {

/// One captured output stream: the pipe's read end (closed at end of file) and what was kept.
struct output_stream {
  unique_fd pipe;
  capped_output text;
};

/// How the child ended, as wait4 reported it.
struct child_exit {
  int wait_status = 0;
  rusage usage{};
  bool timed_out = false;
};

/// When the child's time is up: without a clock at `fixed` (or never); with one, `limit` after
/// `clock` starts and at `before_start` while it has not.
struct deadline_rule {
  std::optional<std::chrono::steady_clock::time_point> fixed;
  std::shared_ptr<const limit_clock> clock;
  std::chrono::steady_clock::duration limit{};
  std::chrono::steady_clock::time_point before_start{};
  /// The deadline as of now, if there is one.
  [[nodiscard]] std::optional<std::chrono::steady_clock::time_point> due() const;
  /// Whether due() can still change (the clock has not started).
  [[nodiscard]] bool may_move() const;
};

/// Reads both streams until the child has exited and the pipes are closed. At the deadline, or
/// as soon as the child itself exits, the whole process group gets SIGKILL so no grandchild
/// outlives the run; then the child is reaped. With a `stop_grace`, the deadline sends SIGTERM
/// first and SIGKILL that much later, so the child can say where it was. `pid` must be the
/// group's leader.
[[nodiscard]] child_exit supervise(pid_t pid, const deadline_rule& deadline, output_stream& out,
                                   output_stream& err,
                                   std::chrono::milliseconds stop_grace = {});

} // namespace cugrade::process::detail
