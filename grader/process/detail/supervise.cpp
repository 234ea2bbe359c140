#include "grader/process/detail/supervise.h"

#include "grader/process/process_table.h"
#include "harness/core/error.h"
#include "harness/core/file_io.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>

namespace cugrade::process::detail {
namespace {

using steady = std::chrono::steady_clock;

// A descendant that left the group can hold a pipe open forever; after the child's exit its
// output gets this long to drain.
constexpr auto drain_grace = std::chrono::seconds(1);
// Without a pidfd, the child's exit is noticed by polling at this interval.
constexpr int exit_poll_ms = 10;
// While a delayed time limit has not started, the loop looks at its clock this often.
constexpr int clock_poll_ms = 20;

// The processes below `root` that are not bubblewrap itself, read from /proc. A sandboxed runner
// sits in its own session and PID namespace, where a signal to the child's process group does
// not reach it, and bwrap does not pass signals on (it would die, and take the runner with it).
std::vector<pid_t> confined_descendants(pid_t root) {
  std::multimap<pid_t, pid_t> children;
  std::map<pid_t, std::string> names;
  for (const pid_t pid : running_pids()) {
    const auto read = read_file("/proc/" + std::to_string(pid) + "/stat");
    const std::string text = read ? *read : std::string();
    const auto close = text.rfind(')');
    const auto open = text.find('(');
    if (close == std::string::npos || open == std::string::npos) {
      continue;
    }
    std::istringstream rest(text.substr(close + 1));
    char state = 0;
    pid_t parent = 0;
    if (rest >> state >> parent) {
      children.emplace(parent, pid);
      names[pid] = text.substr(open + 1, close - open - 1);
    }
  }
  std::vector<pid_t> found;
  std::vector<pid_t> todo{root};
  while (!todo.empty()) {
    const pid_t at = todo.back();
    todo.pop_back();
    for (auto [it, end] = children.equal_range(at); it != end; ++it) {
      todo.push_back(it->second);
      if (names[it->second] != "bwrap") {
        found.push_back(it->second);
      }
    }
  }
  return found;
}

bool is_bubblewrap(pid_t pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  return std::getline(comm, name) && name == "bwrap";
}

// Asks the child to stop (SIGTERM) before it is killed: the program inside where the child is
// bubblewrap, else the child's whole group.
void ask_to_stop(pid_t pid) {
  if (!is_bubblewrap(pid)) {
    ::kill(-pid, SIGTERM);
    return;
  }
  for (const pid_t p : confined_descendants(pid)) {
    ::kill(p, SIGTERM);
  }
}

// A pidfd becomes readable when the child exits, so poll() wakes for that too. Old kernels lack
// it; then the loop polls waitid instead.
unique_fd open_pidfd(pid_t pid) {
  return unique_fd(static_cast<int>(syscall(SYS_pidfd_open, pid, 0)));
}

// WNOWAIT leaves the zombie in place: its pid, and so the group id, cannot be reused until the
// group has been killed and the child reaped.
bool has_exited(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

void kill_group(pid_t pid) {
  ::kill(-pid, SIGKILL);
}

// Reads what is available now; closes the pipe at end of file.
void drain(output_stream& stream) {
  std::array<char, 65536> buffer{};
  while (true) {
    const ssize_t got = read(stream.pipe.get(), buffer.data(), buffer.size());
    if (got > 0) {
      stream.text.append(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
    } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
      stream.pipe.reset();
      return;
    } else if (errno == EAGAIN) {
      return;
    }
  }
}

int milliseconds_until(steady::time_point when) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(when - steady::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 60'000));
}

class supervisor {
public:
  supervisor(pid_t pid, const deadline_rule& rule, output_stream& out, output_stream& err,
             std::chrono::milliseconds stop_grace)
      : m_pid(pid), m_rule(rule), m_stop_grace(stop_grace), m_streams{&out, &err},
        m_pidfd(open_pidfd(pid)) {
    for (output_stream* stream : m_streams) {
      fcntl(stream->pipe.get(), F_SETFL, O_NONBLOCK);
    }
  }

  child_exit run() {
    while (step()) {
    }
    return reap();
  }

private:
  // One round: notice exit or expiry, then wait for output or the next event. False when done.
  bool step() {
    if (!m_exited && has_exited(m_pid)) {
      m_exited = true;
      kill_group(m_pid); // background jobs of the child die with it
      m_drain_deadline = steady::now() + drain_grace;
    }
    if (m_exited && (all_closed() || steady::now() >= m_drain_deadline)) {
      return false;
    }
    if (const auto due = m_rule.due();
        !m_exited && !m_timed_out && due && steady::now() >= *due) {
      m_timed_out = true;
      m_kill_due = steady::now() + m_stop_grace;
      if (m_stop_grace.count() > 0) {
        ask_to_stop(m_pid);
      }
    }
    if (!m_exited && m_timed_out && !m_killed && steady::now() >= m_kill_due) {
      m_killed = true;
      kill_group(m_pid);
    }
    wait_for_events();
    return true;
  }

  [[nodiscard]] bool all_closed() const {
    return std::none_of(m_streams.begin(), m_streams.end(),
                        [](const output_stream* stream) { return stream->pipe.valid(); });
  }

  [[nodiscard]] int poll_timeout() const {
    int timeout = 60'000;
    if (m_exited) {
      return std::min(timeout, milliseconds_until(m_drain_deadline));
    }
    if (m_timed_out && !m_killed) {
      timeout = std::min(timeout, milliseconds_until(m_kill_due));
    } else if (const auto due = m_rule.due(); due && !m_timed_out) {
      timeout = std::min(timeout, milliseconds_until(*due));
    }
    if (m_rule.may_move()) {
      timeout = std::min(timeout, clock_poll_ms); // notice the clock's start
    }
    return m_pidfd.valid() ? timeout : std::min(timeout, exit_poll_ms);
  }

  void wait_for_events() {
    std::array<pollfd, 3> fds{};
    std::array<output_stream*, 3> owners{};
    nfds_t count = 0;
    for (output_stream* stream : m_streams) {
      if (stream->pipe.valid()) {
        owners[count] = stream;
        fds[count++] = pollfd{stream->pipe.get(), POLLIN, 0};
      }
    }
    if (!m_exited && m_pidfd.valid()) {
      fds[count++] = pollfd{m_pidfd.get(), POLLIN, 0};
    }
    if (poll(fds.data(), count, poll_timeout()) < 0 && errno != EINTR) {
      CUGRADE_THROW(std::string("poll on a child's output failed: ") + std::strerror(errno));
    }
    for (nfds_t i = 0; i < count; ++i) {
      if (owners[i] != nullptr && fds[i].revents != 0) {
        drain(*owners[i]);
      }
    }
  }

  child_exit reap() {
    child_exit result;
    result.timed_out = m_timed_out;
    while (wait4(m_pid, &result.wait_status, 0, &result.usage) < 0) {
      if (errno != EINTR) {
        CUGRADE_THROW(std::string("wait4 on a child failed: ") + std::strerror(errno));
      }
    }
    return result;
  }

  pid_t m_pid;
  const deadline_rule& m_rule;
  steady::time_point m_kill_due{}; // after a time-out: when SIGKILL is due
  std::chrono::milliseconds m_stop_grace;
  std::array<output_stream*, 2> m_streams;
  unique_fd m_pidfd;
  bool m_exited = false;
  bool m_timed_out = false;
  bool m_killed = false;
  steady::time_point m_drain_deadline{};
};

} // namespace

std::optional<steady::time_point> deadline_rule::due() const {
  if (!clock) {
    return fixed;
  }
  const auto started = clock->started();
  return started ? *started + limit : before_start;
}

bool deadline_rule::may_move() const {
  return clock && !clock->started();
}

child_exit supervise(pid_t pid, const deadline_rule& deadline, output_stream& out,
                     output_stream& err, std::chrono::milliseconds stop_grace) {
  return supervisor(pid, deadline, out, err, stop_grace).run();
}

} // namespace cugrade::process::detail
