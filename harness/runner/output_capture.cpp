#include "harness/runner/output_capture.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <thread>
#include <unistd.h>

namespace cugrade::runner {

namespace {

void flush_streams() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
}

void close_fd(int& fd) {
  if (fd >= 0) {
    ::close(fd);
    fd = -1;
  }
}

output_capture* active_capture = nullptr;

// A launcher may end the runner with exit(): what it wrote is still in the pipe, and the reader
// thread would die with the process. The handler drains it first (and so tees it to stderr).
void drain_at_exit() {
  if (active_capture != nullptr) {
    static_cast<void>(active_capture->end());
  }
}

} // namespace

struct output_capture::state {
  std::size_t keep_bytes = 0;
  int saved_out = -1;
  int saved_err = -1;
  int read_end = -1;
  int stop_read = -1;
  int stop_write = -1;
  bool active = false;
  captured_output caught;
  std::thread reader;

  // Keeps what fits in this call's share and counts everything. Everything also goes on to the
  // runner's own stderr, as before the capture: when a call ends the runner (exit(3) in a
  // launcher), the grader's message about the stopped runner quotes its tail.
  void keep(const char* bytes, std::size_t n) {
    for (std::size_t sent = 0; sent < n;) {
      const ssize_t w = ::write(saved_err, bytes + sent, n - sent);
      if (w <= 0 && errno != EINTR) {
        break;
      }
      sent += w > 0 ? static_cast<std::size_t>(w) : 0;
    }
    caught.bytes += n;
    if (caught.text.size() < keep_bytes) {
      caught.text.append(bytes, std::min(n, keep_bytes - caught.text.size()));
    }
  }

  // Reads until the pipe is empty; false at end of file or on an error.
  bool drain() {
    char buffer[8192];
    for (;;) {
      const ssize_t got = ::read(read_end, buffer, sizeof buffer);
      if (got > 0) {
        keep(buffer, static_cast<std::size_t>(got));
        continue;
      }
      return got < 0 && (errno == EAGAIN || errno == EINTR);
    }
  }

  // Drains the pipe as it fills; once told to stop, takes what is left and returns. Nothing waits
  // for end of file: a copy of the write end the student's code kept cannot hold the runner up.
  void read_until_stopped() {
    pollfd fds[2] = {{read_end, POLLIN, 0}, {stop_read, POLLIN, 0}};
    for (;;) {
      if (::poll(fds, 2, -1) < 0 && errno != EINTR) {
        return;
      }
      if ((fds[0].revents & (POLLIN | POLLHUP)) != 0 && !drain()) {
        return;
      }
      if ((fds[1].revents & POLLIN) != 0) {
        drain();
        return;
      }
    }
  }

  void restore() {
    flush_streams();
    ::dup2(saved_out, STDOUT_FILENO);
    ::dup2(saved_err, STDERR_FILENO);
  }
};

output_capture::output_capture() : m(std::make_unique<state>()) {}

output_capture::~output_capture() {
  if (m->active) {
    end();
  }
  close_fd(m->saved_out);
  close_fd(m->saved_err);
}

bool output_capture::begin(std::size_t keep_bytes) {
  if (m->active) {
    return true;
  }
  if (m->saved_out < 0) {
    m->saved_out = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    m->saved_err = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  }
  int data[2] = {-1, -1};
  int stop[2] = {-1, -1};
  if (m->saved_out < 0 || m->saved_err < 0 || ::pipe2(data, O_CLOEXEC | O_NONBLOCK) != 0) {
    return false;
  }
  if (::pipe2(stop, O_CLOEXEC) != 0) {
    ::close(data[0]);
    ::close(data[1]);
    return false;
  }
  // Only the reading end is non-blocking: a writer waits for room rather than losing bytes.
  ::fcntl(data[1], F_SETFL, 0);
  flush_streams();
  m->read_end = data[0];
  m->stop_read = stop[0];
  m->stop_write = stop[1];
  m->caught = {};
  m->keep_bytes = keep_bytes;
  try {
    m->reader = std::thread([s = m.get()] { s->read_until_stopped(); });
  } catch (const std::system_error&) {
    close_fd(m->read_end);
    close_fd(m->stop_read);
    close_fd(m->stop_write);
    ::close(data[1]);
    return false;
  }
  ::dup2(data[1], STDOUT_FILENO);
  ::dup2(data[1], STDERR_FILENO);
  ::close(data[1]);
  m->active = true;
  static const bool registered = std::atexit(drain_at_exit) == 0;
  static_cast<void>(registered);
  active_capture = this;
  return true;
}

captured_output output_capture::end() {
  if (!m->active) {
    return {};
  }
  m->restore();
  const char stop = 1;
  while (::write(m->stop_write, &stop, 1) < 0 && errno == EINTR) {
  }
  m->reader.join();
  active_capture = nullptr;
  close_fd(m->read_end);
  close_fd(m->stop_read);
  close_fd(m->stop_write);
  m->active = false;
  return std::move(m->caught);
}

} // namespace cugrade::runner
