// Text from a submission, a compiler, a runner or a git server as the commands print it, and the
// progress lines of grade, check and bench.
#include "grader/cli/commands.h"

#include "harness/core/untrusted_text.h"

#include <chrono>
#include <condition_variable>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

namespace cugrade::cli {

std::string shown(std::string_view text) {
  return escape_untrusted_text(text);
}

namespace {

using clock_type = std::chrono::steady_clock;

// Prints progress lines and, whenever `quiet` passes with none, what the command is still
// waiting for: the last line, with how long it has been. The thread ends with the object.
class progress_printer {
public:
  explicit progress_printer(std::chrono::seconds quiet)
      : m_quiet(quiet), m_last_at(clock_type::now()), m_watch([this] { watch(); }) {}
  ~progress_printer() {
    {
      const std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    m_watch.join();
  }
  progress_printer(const progress_printer&) = delete;
  progress_printer& operator=(const progress_printer&) = delete;

  void print(std::string_view message) {
    const std::lock_guard lock(m_mutex);
    m_last = shown(message);
    m_last_at = clock_type::now();
    m_next_notice = m_last_at + m_quiet;
    std::cerr << "cugrade: " << m_last << "\n";
  }

private:
  void watch() {
    std::unique_lock lock(m_mutex);
    m_next_notice = m_last_at + m_quiet;
    while (!m_stop) {
      if (m_wake.wait_until(lock, m_next_notice, [this] { return m_stop; })) {
        return;
      }
      if (clock_type::now() >= m_next_notice && !m_last.empty()) {
        const auto waited =
            std::chrono::duration_cast<std::chrono::seconds>(clock_type::now() - m_last_at);
        std::cerr << "cugrade: still waiting after " << waited.count() << " s for: " << m_last
                  << "\n";
      }
      m_next_notice = clock_type::now() + m_quiet;
    }
  }

  std::chrono::seconds m_quiet;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false;
  std::string m_last;
  clock_type::time_point m_last_at;
  clock_type::time_point m_next_notice;
  std::thread m_watch;
};

} // namespace

std::function<void(std::string_view)> progress_on_stderr() {
  auto printer = std::make_shared<progress_printer>(std::chrono::seconds(10));
  return [printer](std::string_view m) { printer->print(m); };
}

} // namespace cugrade::cli
