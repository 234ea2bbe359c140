#include "grader/batch/stop_signals.h"

#include <csignal>
#include <ctime>

namespace cugrade::batch {

namespace {

sigset_t stop_set() {
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  return stops;
}

} // namespace

void block_stop_signals() {
  const auto stops = stop_set();
  pthread_sigmask(SIG_BLOCK, &stops, nullptr);
}

bool stop_requested_within(double seconds) {
  const auto stops = stop_set();
  const auto whole = static_cast<time_t>(seconds);
  const timespec wait{whole, static_cast<long>((seconds - static_cast<double>(whole)) * 1e9)};
  return sigtimedwait(&stops, nullptr, &wait) > 0;
}

} // namespace cugrade::batch
