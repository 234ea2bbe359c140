#include "grader/fetch/detail/child_fetch.h"

#include "grader/fetch/fetcher.h"

#include "grader/fetch/detail/fetch_wire.h"
#include "grader/fetch/detail/libgit2.h"
#include "grader/fetch/detail/repository_fetch.h"
#include "grader/process/process.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

namespace cugrade::fetch::detail {
namespace fs = std::filesystem;

namespace {

// The read end of a pipe whose lines go to `progress`, on a thread of their own.
class progress_pipe {
public:
  explicit progress_pipe(const progress_callback& progress) {
    if (::pipe2(m_fds, O_CLOEXEC) != 0) {
      m_fds[0] = m_fds[1] = -1;
      return;
    }
    m_reader = std::thread([this, &progress] { forward(progress); });
  }
  ~progress_pipe() {
    close_write_end();
    if (m_reader.joinable())
      m_reader.join();
    if (m_fds[0] >= 0)
      ::close(m_fds[0]);
  }
  progress_pipe(const progress_pipe&) = delete;
  progress_pipe& operator=(const progress_pipe&) = delete;

  [[nodiscard]] int write_end() const { return m_fds[1]; }
  /// Once the child is gone: the reader then sees the end of its lines.
  void close_write_end() {
    if (m_fds[1] >= 0) {
      ::close(m_fds[1]);
      m_fds[1] = -1;
    }
  }

private:
  void forward(const progress_callback& progress) {
    std::string pending;
    char chunk[512];
    for (;;) {
      const ssize_t got = ::read(m_fds[0], chunk, sizeof chunk);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      pending.append(chunk, static_cast<std::size_t>(got));
      for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n')) {
        if (progress)
          progress(pending.substr(0, nl));
        pending.erase(0, nl + 1);
      }
      if (pending.size() > 4096)
        pending.clear(); // a line that never ends is not progress
    }
  }

  int m_fds[2] = {-1, -1};
  std::thread m_reader;
};

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

// Address space for the child: libgit2 maps pack windows, bounded below by its own option.
constexpr std::size_t fetcher_address_space = std::size_t{4} << 30;

} // namespace

result<fetched_submission> fetch_in_child(const fetch_request& request, const source_info& info,
                                          const fs::path& entry) {
  if (request.fetcher.empty())
    return fail("no cugrade-fetch program was given to fetch " + request.source +
                "; reinstall cugrade (cugrade-fetch sits beside cugrade)");
  progress_pipe progress(request.progress);
  wire_request wire{request, info, entry};
  process::spawn_options options;
  options.argv = {request.fetcher.string(), "--request", encode_request(wire)};
  if (progress.write_end() >= 0) {
    options.argv.insert(options.argv.end(),
                        {"--progress-fd", std::to_string(progress.write_end())});
    options.inherit_fds = {progress.write_end()};
  }
  options.time_limit_seconds = request.limits.seconds;
  options.address_space_bytes = fetcher_address_space;
  options.capture_limit_bytes = std::size_t{1} << 20;
  auto run = process::run_process(options);
  progress.close_write_end();
  if (!run)
    return fail("cannot start " + request.fetcher.string() + ": " + run.error());
  if (run->timed_out) {
    empty_cache_entry(entry);
    return fail(request.source + ": fetching took longer than " +
                seconds_text(request.limits.seconds) +
                " s (the limit, \"limits\": {\"fetch_seconds\"} in the assignment's spec) and was "
                "stopped; check the network and the server, then grade again");
  }
  if (!run->succeeded()) {
    empty_cache_entry(entry);
    return fail(request.source + ": the fetch ended abnormally (" +
                (run->term_signal != 0 ? "signal " + std::to_string(run->term_signal)
                                       : "exit status " + std::to_string(run->exit_code)) +
                "): " + run->stderr_text.substr(0, 2000));
  }
  return decode_outcome(run->stdout_text);
}

} // namespace cugrade::fetch::detail

namespace cugrade::fetch {
using namespace detail;

int run_fetcher(int argc, char** argv) {
  std::string request_text;
  int progress_fd = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--request") == 0)
      request_text = argv[i + 1];
    else if (std::strcmp(argv[i], "--progress-fd") == 0)
      progress_fd = std::atoi(argv[i + 1]);
  }
  if (request_text.empty()) {
    std::fputs("cugrade-fetch is started by cugrade, never by hand: it takes --request JSON "
               "[--progress-fd N]\n",
               stderr);
    return 2;
  }
  auto wire = decode_request(request_text);
  if (!wire) {
    std::fputs((wire.error() + "\n").c_str(), stderr);
    return 2;
  }
  if (progress_fd >= 0)
    wire->request.progress = [progress_fd](std::string_view line) {
      const std::string text = std::string(line) + "\n";
      [[maybe_unused]] const auto put = ::write(progress_fd, text.data(), text.size());
    };
  const libgit2_session session;
  // Pack windows mapped at once stay well inside the address space the grader allows.
  git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, std::size_t{512} << 20);
  const auto outcome = fetch_repository(wire->request, wire->info, wire->entry);
  const std::string text = encode_outcome(outcome) + "\n";
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0
             ? 0
             : 1;
}

} // namespace cugrade::fetch
