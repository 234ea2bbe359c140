#include "reports/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace cugrade::reports {
namespace {

bool fail(std::string* err, const std::string& what, int code) {
  if (err != nullptr) {
    *err = what + ": " + std::strerror(code);
  }
  return false;
}

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

bool write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           std::string* err) {
  const std::filesystem::path dir =
      path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return fail(err, "cannot create directory " + dir.string(), ec.value());
  }
  // A dot name keeps the temporary out of globs such as reports/*.json while it exists.
  std::string temp = (dir / ("." + path.filename().string() + ".tmp.XXXXXX")).string();
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    return fail(err, "cannot create a temporary file in " + dir.string(), errno);
  }
  const bool written = ::fchmod(fd, 0644) == 0 && write_all(fd, content) && ::fsync(fd) == 0;
  const int write_errno = errno;
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    ::unlink(temp.c_str());
    return fail(err, "cannot write " + temp, written ? errno : write_errno);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    ::unlink(temp.c_str());
    return fail(err, "cannot rename " + temp + " to " + path.string(), rename_errno);
  }
  sync_directory(dir);
  return true;
}

} // namespace cugrade::reports
