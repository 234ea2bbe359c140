#include "grader/process/device_lock.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cugrade::process {

namespace fs = std::filesystem;

namespace {

// A directory every user can create lock files in: sticky and world-writable, like /tmp.
bool usable_directory(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir, ec)) {
    return false;
  }
  ::chmod(dir.c_str(), 01777); // best effort: only the creator can, and only it needs to
  return ::access(dir.c_str(), W_OK | X_OK) == 0;
}

// Only letters, digits and '-' of a UUID reach a file name.
std::string file_stem(std::string_view uuid) {
  std::string stem;
  for (const char c : uuid) {
    const bool keep = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                      (c >= 'A' && c <= 'Z') || c == '-';
    stem += keep ? c : '_';
  }
  return stem.empty() ? "unknown-gpu" : stem;
}

result<int> open_lock_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    return fail("cannot open the GPU lock " + path.string() + ": " + std::strerror(errno) +
                " (set CUGRADE_LOCK_DIR to a directory every grader can write)");
  }
  ::fchmod(fd, 0666); // so other users' graders can lock it too; fails harmlessly if not ours
  return fd;
}

// flock that retries after signals; `waiting` is told once when the lock is busy.
bool lock(int fd, int operation, const std::function<void()>& waiting) {
  if (::flock(fd, operation | LOCK_NB) == 0) {
    return true;
  }
  if (errno != EWOULDBLOCK) {
    return false;
  }
  if (waiting) {
    waiting();
  }
  while (::flock(fd, operation) != 0) {
    if (errno != EINTR) {
      return false;
    }
  }
  return true;
}

} // namespace

fs::path device_lock::directory() {
  if (const char* dir = std::getenv("CUGRADE_LOCK_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  const fs::path run_lock = "/run/lock/cugrade";
  if (usable_directory(run_lock)) {
    return run_lock;
  }
  return fs::temp_directory_path() / "cugrade-locks";
}

result<device_lock> device_lock::acquire(std::string_view uuid, lock_mode mode,
                                         const std::function<void(std::string_view)>& waiting) {
  const fs::path dir = directory();
  if (!usable_directory(dir)) {
    return fail("cannot use the GPU lock directory " + dir.string() +
                " (set CUGRADE_LOCK_DIR to a directory every grader can write)");
  }
  const std::string stem = file_stem(uuid);
  auto turnstile = open_lock_file(dir / (stem + ".turnstile"));
  if (!turnstile) {
    return fail(turnstile.error());
  }
  auto main = open_lock_file(dir / (stem + ".lock"));
  if (!main) {
    ::close(*turnstile);
    return fail(main.error());
  }
  bool told = false;
  const auto tell = [&] {
    if (!told && waiting) {
      told = true;
      waiting(mode == lock_mode::exclusive
                  ? "waiting for the GPU: other gradings are running on it"
                  : "waiting for the GPU: another grading is timing on it");
    }
  };
  // Shared holders pass the turnstile (blocked while an exclusive holder waits or holds it);
  // an exclusive holder keeps it until it has the lock, so new shared holders queue behind.
  const int op = mode == lock_mode::exclusive ? LOCK_EX : LOCK_SH;
  const bool ok = lock(*turnstile, op, tell) && lock(*main, op, tell);
  ::close(*turnstile); // releases the turnstile
  if (!ok) {
    const std::string why = std::strerror(errno);
    ::close(*main);
    return fail("cannot lock the GPU " + std::string(uuid) + ": " + why);
  }
  return device_lock(*main, mode);
}

device_lock::device_lock(device_lock&& other) noexcept : m_fd(other.m_fd), m_mode(other.m_mode) {
  other.m_fd = -1;
}

device_lock& device_lock::operator=(device_lock&& other) noexcept {
  if (this != &other) {
    release();
    m_fd = other.m_fd;
    m_mode = other.m_mode;
    other.m_fd = -1;
  }
  return *this;
}

device_lock::~device_lock() {
  release();
}

void device_lock::release() noexcept {
  if (m_fd >= 0) {
    ::close(m_fd); // closing the only descriptor of the open file description unlocks it
    m_fd = -1;
  }
}

} // namespace cugrade::process
