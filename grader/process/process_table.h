#pragma once
/// \file
/// The machine's processes as /proc lists them: for stopping what a killed grading left running
/// (temp_dir.cpp), the processes inside a sandbox (detail/supervise.cpp) and the tests that
/// check no runner outlives its grading.

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace cugrade::process {

/// The IDs of the processes running now (some may have ended by the time they are read).
[[nodiscard]] std::vector<pid_t> running_pids();

/// A process's arguments, each ended by a NUL as /proc/PID/cmdline gives them; nothing once the
/// process is gone (or for a kernel thread, which has none).
[[nodiscard]] std::optional<std::string> command_line(pid_t pid);

/// A process's parent (from /proc/PID/stat); nothing once the process is gone. An orphan's parent
/// is the nearest ancestor that is a child subreaper (prctl PR_SET_CHILD_SUBREAPER), else init.
[[nodiscard]] std::optional<pid_t> parent_of(pid_t pid);

/// Whether `ancestor` is `pid`'s parent, its parent's parent, and so on.
[[nodiscard]] bool descends_from(pid_t pid, pid_t ancestor);

/// The program a command line runs: the file name of its first argument.
[[nodiscard]] std::string program_name(const std::string& command_line);

} // namespace cugrade::process
