#include "harness/core/file_io.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace cugrade {
namespace {

failure system_failure(const std::string& what, int code) {
  return fail(what + ": " + std::strerror(code));
}

// Closes the descriptor when the read or write is done, whichever way it ends.
class fd_closer {
public:
  explicit fd_closer(int fd) : m_fd(fd) {}
  fd_closer(const fd_closer&) = delete;
  fd_closer& operator=(const fd_closer&) = delete;
  ~fd_closer() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }

private:
  int m_fd;
};

bool write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      errno = n == 0 ? EIO : errno;
      return false;
    }
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The rename is durable only once the directory entry is on disk; a failure here loses nothing
// that the rename has not already made visible, so it is not reported.
void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

} // namespace

result<std::string> read_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return system_failure("cannot read " + path.string(), errno);
  }
  const fd_closer closer(fd);
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return system_failure("cannot read " + path.string(), errno);
    }
    if (n == 0) {
      return text;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

result<void> write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  const std::filesystem::path dir =
      path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return system_failure("cannot create directory " + dir.string(), ec.value());
  }
  // A dot name keeps the temporary out of globs such as reports/*.json while it exists.
  std::string temp = (dir / ("." + path.filename().string() + ".tmp.XXXXXX")).string();
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    return system_failure("cannot create a temporary file in " + dir.string(), errno);
  }
  const bool written = ::fchmod(fd, 0644) == 0 && write_all(fd, content) && ::fsync(fd) == 0;
  const int write_errno = errno;
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    const int reason = written ? errno : write_errno;
    ::unlink(temp.c_str());
    return system_failure("cannot write " + temp, reason);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    ::unlink(temp.c_str());
    return system_failure("cannot rename " + temp + " to " + path.string(), rename_errno);
  }
  sync_directory(dir);
  return {};
}

std::string file_stamp(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return {};
  }
  return std::to_string(st.st_size) + ' ' + std::to_string(st.st_mtim.tv_sec) + ' ' +
         std::to_string(st.st_mtim.tv_nsec) + ' ' + std::to_string(st.st_ino);
}

} // namespace cugrade
