#include "grader/fetch/submission_copy.h"

#include "harness/core/words.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <system_error>

namespace cugrade::fetch {
namespace fs = std::filesystem;

namespace {

// A descriptor closed on every path out.
class descriptor {
public:
  explicit descriptor(int fd) : m_fd(fd) {}
  ~descriptor() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  descriptor(const descriptor&) = delete;
  descriptor& operator=(const descriptor&) = delete;
  [[nodiscard]] int get() const { return m_fd; }
  [[nodiscard]] bool ok() const { return m_fd >= 0; }
  int release() { return std::exchange(m_fd, -1); }

private:
  int m_fd;
};

std::string errno_text(int error) {
  return std::error_code(error, std::generic_category()).message();
}

// What a file that is not a regular file is, in words.
const char* kind_of(mode_t mode) {
  if (S_ISLNK(mode)) {
    return "a symbolic link";
  }
  if (S_ISDIR(mode)) {
    return "a folder";
  }
  if (S_ISFIFO(mode)) {
    return "a FIFO (named pipe)";
  }
  if (S_ISCHR(mode)) {
    return "a character device";
  }
  if (S_ISBLK(mode)) {
    return "a block device";
  }
  if (S_ISSOCK(mode)) {
    return "a socket";
  }
  return "not a regular file";
}

bool is_cuda_source(const std::string& name) {
  const std::string lower = ascii_lowercase(name);
  return lower.size() > 3 && lower.compare(lower.size() - 3, 3, ".cu") == 0;
}

// A list of names for a note, at most `shown` of them.
std::string name_list(std::vector<std::string> names, std::size_t shown = 5) {
  std::sort(names.begin(), names.end());
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) {
    text += (i == 0 ? "" : ", ") + names[i];
  }
  if (names.size() > shown) {
    text += " and " + std::to_string(names.size() - shown) + " more";
  }
  return text;
}

struct walk {
  const copy_limits& limits;
  const std::string& source_file;
  std::uint64_t bytes = 0;
  std::size_t entries = 0;
  std::vector<std::string> links;
  std::vector<std::string> special;
  std::vector<std::string> same_name; // the source's name in another case or folder
  std::vector<std::string> cuda_files;
  std::optional<failure> stopped; // the first limit passed or copy that failed
};

void stop(walk& w, failure why) {
  if (!w.stopped) {
    w.stopped = std::move(why);
  }
}

// Copies one regular file, already seen as `seen` by fstatat, from `dirfd` to `target`, reading
// at most `cap` bytes (one more tells a file over the cap). Returns the bytes copied, or nothing
// when the file was over `cap` or changed into something else in the meantime.
result<std::optional<std::uint64_t>> copy_file(int dirfd, const std::string& name,
                                               const struct stat& seen, const fs::path& target,
                                               std::uint64_t cap) {
  descriptor in(
      ::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  struct stat opened {};
  if (!in.ok() || ::fstat(in.get(), &opened) != 0 || !S_ISREG(opened.st_mode) ||
      opened.st_ino != seen.st_ino || opened.st_dev != seen.st_dev) {
    return std::optional<std::uint64_t>(); // replaced between the look and the open: not copied
  }
  descriptor out(
      ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!out.ok()) {
    return fail("cannot write " + target.string() + " (" + errno_text(errno) +
                "); check the grading's work folder");
  }
  std::array<char, 1 << 16> buffer{};
  std::uint64_t copied = 0;
  for (;;) {
    const ssize_t got = ::read(in.get(), buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      break; // a read error ends the file where it ends: what was read is what is graded
    }
    copied += static_cast<std::uint64_t>(got);
    if (copied > cap) {
      return std::optional<std::uint64_t>();
    }
    for (ssize_t done = 0; done < got;) {
      const ssize_t put = ::write(out.get(), buffer.data() + done, static_cast<size_t>(got - done));
      if (put < 0 && errno == EINTR) {
        continue;
      }
      if (put <= 0) {
        return fail("cannot write " + target.string() + " (" + errno_text(errno) +
                    "); check the grading's work folder and its free space");
      }
      done += put;
    }
  }
  return std::optional<std::uint64_t>(copied);
}

std::string over_total(const walk& w, const std::string& path, std::uint64_t size) {
  return "the submission holds more than " + byte_size_text(w.limits.submission_bytes) +
         " of files (the limit, \"limits\": {\"submission_bytes\"} in the assignment's spec); " +
         path + " alone is " + byte_size_text(size) + ": keep only your sources in the submission";
}

void copy_folder(walk& w, int dirfd, const fs::path& target, const std::string& relative,
                 int depth);

// One entry of a folder: a regular file is copied, a folder walked, anything else noted.
void copy_entry(walk& w, int dirfd, const std::string& name, const fs::path& target,
                const std::string& relative, int depth) {
  const std::string path = relative.empty() ? name : relative + "/" + name;
  struct stat seen {};
  if (::fstatat(dirfd, name.c_str(), &seen, AT_SYMLINK_NOFOLLOW) != 0) {
    return; // gone since the folder was listed
  }
  if (++w.entries > w.limits.max_entries) {
    stop(w,
         fail_submission("the submission holds more than " + std::to_string(w.limits.max_entries) +
                         " files and folders; keep only your sources in the submission"));
    return;
  }
  if (S_ISLNK(seen.st_mode)) {
    w.links.push_back(path);
    return;
  }
  if (S_ISDIR(seen.st_mode)) {
    if (depth + 1 > w.limits.max_depth) {
      stop(w, fail_submission(path + " is nested more than " + std::to_string(w.limits.max_depth) +
                              " folders deep; keep the submission's folders shallow"));
      return;
    }
    descriptor sub(::openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    struct stat opened {};
    if (!sub.ok() || ::fstat(sub.get(), &opened) != 0 || opened.st_ino != seen.st_ino) {
      return;
    }
    std::error_code ec;
    fs::create_directory(target / name, ec);
    if (ec) {
      stop(w, fail("cannot create " + (target / name).string() + " (" + ec.message() + ")"));
      return;
    }
    copy_folder(w, sub.release(), target / name, path, depth + 1);
    return;
  }
  if (!S_ISREG(seen.st_mode)) {
    w.special.push_back(path + " (" + kind_of(seen.st_mode) + ")");
    return;
  }
  if (ascii_lowercase(name) == ascii_lowercase(w.source_file) && path != w.source_file) {
    w.same_name.push_back(path);
  } else if (is_cuda_source(name) && path != w.source_file) {
    w.cuda_files.push_back(path);
  }
  const bool is_source = path == w.source_file;
  const std::uint64_t left =
      w.limits.submission_bytes - std::min(w.bytes, w.limits.submission_bytes);
  const std::uint64_t cap = is_source ? std::min(left, w.limits.source_bytes) : left;
  auto copied = copy_file(dirfd, name, seen, target / name, cap);
  if (!copied) {
    stop(w, copied.why());
  } else if (!*copied) {
    const auto size = static_cast<std::uint64_t>(seen.st_size);
    stop(w, fail_submission(is_source && size > w.limits.source_bytes
                                ? path + " is " + byte_size_text(size) + "; the limit is " +
                                      byte_size_text(w.limits.source_bytes) +
                                      " (\"limits\": {\"source_bytes\"} in the assignment's "
                                      "spec); submit only your source"
                                : over_total(w, path, size)));
  } else {
    w.bytes += **copied;
  }
}

// Walks the folder open at `dirfd` (owned from here on) into `target`, in name order.
void copy_folder(walk& w, int dirfd, const fs::path& target, const std::string& relative,
                 int depth) {
  DIR* listing = ::fdopendir(dirfd);
  if (listing == nullptr) {
    ::close(dirfd);
    stop(w, fail("cannot list " + (relative.empty() ? std::string("the submission") : relative) +
                 " (" + errno_text(errno) + ")"));
    return;
  }
  std::vector<std::string> names;
  while (const dirent* entry = ::readdir(listing)) {
    const std::string name = entry->d_name;
    if (name != "." && name != ".." && name != ".git") {
      names.push_back(name);
    }
    if (names.size() > w.limits.max_entries) {
      break; // copy_entry reports the limit
    }
  }
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    if (w.stopped) {
      break;
    }
    copy_entry(w, ::dirfd(listing), name, target, relative, depth);
  }
  ::closedir(listing);
}

// Why the contract's source cannot be graded as it stands at the root, if it cannot.
std::optional<failure> source_problem(int rootfd, const std::string& source_file,
                                      const copy_limits& limits) {
  struct stat seen {};
  if (::fstatat(rootfd, source_file.c_str(), &seen, AT_SYMLINK_NOFOLLOW) != 0) {
    return std::nullopt; // missing: the walk looks for where it might be
  }
  if (S_ISLNK(seen.st_mode)) {
    return fail_submission(source_file +
                           " is a symbolic link; submit the file itself (links are never "
                           "followed)");
  }
  if (!S_ISREG(seen.st_mode)) {
    return fail_submission(source_file + " is " + kind_of(seen.st_mode) +
                           ", not a regular file; submit the file itself");
  }
  const auto size = static_cast<std::uint64_t>(seen.st_size);
  if (size > limits.source_bytes) {
    return fail_submission(source_file + " is " + byte_size_text(size) + "; the limit is " +
                           byte_size_text(limits.source_bytes) +
                           " (\"limits\": {\"source_bytes\"} in the assignment's spec); submit "
                           "only your source");
  }
  return std::nullopt;
}

// The contract's source is not at the root: name the file the student probably meant.
failure missing_source(const walk& w, const fs::path& from) {
  std::string message = w.source_file + " was not found at the root of the submission (" +
                        from.filename().string() + "/); the contract asks for it there";
  if (!w.same_name.empty()) {
    const std::string& found = w.same_name.front();
    const bool same_folder = found.find('/') == std::string::npos;
    message += "; found " + found + ": " +
               (same_folder ? "rename it to " + w.source_file + " (names are case-sensitive)"
                            : "move it to the root of your repository" +
                                  std::string(fs::path(found).filename() == w.source_file
                                                  ? ""
                                                  : " and name it " + w.source_file));
  } else if (w.cuda_files.size() == 1) {
    message += "; found " + w.cuda_files.front() + ": name it " + w.source_file +
               " and put it at the root of your repository";
  }
  return fail_submission(message);
}

std::vector<std::string> notes_of(const walk& w) {
  std::vector<std::string> notes;
  if (!w.links.empty()) {
    notes.push_back(std::to_string(w.links.size()) +
                    (w.links.size() == 1 ? " symbolic link was" : " symbolic links were") +
                    " not copied (links are never followed): " + name_list(w.links));
  }
  if (!w.special.empty()) {
    notes.push_back(std::to_string(w.special.size()) +
                    (w.special.size() == 1 ? " file that is not a regular file was"
                                           : " files that are not regular files were") +
                    " not copied: " + name_list(w.special));
  }
  return notes;
}

} // namespace

std::string byte_size_text(std::uint64_t bytes) {
  constexpr std::uint64_t mib = std::uint64_t{1} << 20;
  char text[64];
  if (bytes < 1024) {
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  } else if (bytes < mib) {
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  } else if (bytes % mib == 0) {
    std::snprintf(text, sizeof text, "%llu MiB", static_cast<unsigned long long>(bytes / mib));
  } else {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / mib);
  }
  return text;
}

result<copied_submission> copy_submission(const fs::path& from, const std::string& source_file,
                                          const fs::path& to, const copy_limits& limits) {
  // The root itself is whoever runs cugrade's choice, so it may be reached through a link.
  descriptor root(::open(from.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root.ok()) {
    return fail("cannot open the submission " + from.string() + " (" + errno_text(errno) + ")");
  }
  if (auto problem = source_problem(root.get(), source_file, limits)) {
    return *problem;
  }
  std::error_code ec;
  if (!fs::create_directories(to, ec) || ec) {
    return fail("cannot create " + to.string() + " for the submission's copy (" +
                (ec ? ec.message() : std::string("it exists already")) + ")");
  }
  struct stat seen {};
  const bool submitted =
      ::fstatat(root.get(), source_file.c_str(), &seen, AT_SYMLINK_NOFOLLOW) == 0;
  walk w{limits, source_file, 0, 0, {}, {}, {}, {}, std::nullopt};
  copy_folder(w, root.release(), to, "", 0);
  // A missing source is the news, even when the walk also passed a limit.
  if (w.stopped && (submitted || w.stopped->kind != failure_kind::submission)) {
    return *w.stopped;
  }
  if (!submitted || !fs::is_regular_file(fs::symlink_status(to / source_file))) {
    return missing_source(w, from);
  }
  return copied_submission{to, to / source_file, notes_of(w)};
}

} // namespace cugrade::fetch
