#pragma once
/// \file
/// An owned file descriptor, closed on destruction.

#include <unistd.h>

#include <utility>

namespace cugrade::process::detail {

class unique_fd {
public:
  unique_fd() = default;
  explicit unique_fd(int fd) noexcept : m_fd(fd) {}
  unique_fd(unique_fd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  unique_fd& operator=(unique_fd&& other) noexcept {
    if (this != &other) {
      reset(std::exchange(other.m_fd, -1));
    }
    return *this;
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  ~unique_fd() { reset(); }

  [[nodiscard]] int get() const noexcept { return m_fd; }
  [[nodiscard]] bool valid() const noexcept { return m_fd >= 0; }
  void reset(int fd = -1) noexcept {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
    m_fd = fd;
  }

private:
  int m_fd = -1;
};

/// Both ends of a pipe created with O_CLOEXEC.
struct pipe_pair {
  unique_fd read_end;
  unique_fd write_end;
};

/// pipe2(O_CLOEXEC); throws cugrade::error when the grader is out of descriptors.
[[nodiscard]] pipe_pair make_pipe();

} // namespace cugrade::process::detail
